import { defineModule } from "../manifest";
import * as tables from "./schema";

/** The outbox: events written with the change that caused them, delivered by the webhooks module. */
export const eventsModule = defineModule({ name: "events", tables });
