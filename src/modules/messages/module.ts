import { defineModule } from "../manifest";
import * as tables from "./schema";

/** Messages: the outbox of e-mail and SMS the service sends, their delivery and its log (docs/messages.md). */
export const messagesModule = defineModule({
  name: "messages",
  tables,
});
