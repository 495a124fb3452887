import { prepareTemplate } from "./template.ts";

process.env.LANTERN_TEST = "1";
await prepareTemplate();
