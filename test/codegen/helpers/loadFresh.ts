import { clearSignatureSources } from "../../../src/tools/signatureChange";
import { clearToolSchemas } from "../../../src/tools/schemaRegistry";
import type { TempProject } from "./tempProject";

/**
 * A temp project's generated module (src/tools.generated.ts), then `modulePath`, loaded fresh, as a
 * tsx or SWC process would load them (types stripped): the module registry, the registered tool
 * schemas and the remembered signature sources are cleared first.
 */
export function loadFresh<T>(project: TempProject, modulePath: string): T {
  jest.resetModules();
  clearToolSchemas();
  clearSignatureSources();
  let loaded: T | undefined;
  jest.isolateModules(() => {
    require(project.path("src/tools.generated.ts"));
    loaded = require(project.path(modulePath)) as T;
  });
  return loaded!;
}
