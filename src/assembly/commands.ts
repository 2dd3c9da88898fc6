import { CommandRegistry } from "../http/registry";
import { modules } from "../modules";

/** Every command of spec 4.2 (and the documented extensions), gathered from the module manifests: the app router. */
export const commandRegistry = new CommandRegistry(modules.flatMap((module) => module.commands ?? []));
