// planer (a port of the quotation extractor the family's server uses) ships no types.
declare module 'planer' {
  const planer: {
    /** The reply without the quoted message it answers. */
    extractFromPlain(text: string): string;
  };
  export default planer;
}
