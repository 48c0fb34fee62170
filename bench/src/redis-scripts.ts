/** The queue append script the events service runs per recipient queue, as Redis runs it. */
export { APPEND as APPEND_SCRIPT } from '@chat/queues/src/scripts';
