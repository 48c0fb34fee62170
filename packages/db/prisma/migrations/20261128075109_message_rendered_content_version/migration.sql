-- Which renderer wrote the rendered_content of a message. Rows stored before this column existed
-- were rendered by the renderer before version 1 (highlight.js classes, KaTeX without MathML):
-- they get 0, so `npm run manage -- rerender-messages` finds them, and rows written from now on get
-- the default of the column, the current version.
ALTER TABLE "messages" ADD COLUMN     "rendered_content_version" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "messages" ALTER COLUMN "rendered_content_version" SET DEFAULT 1;
