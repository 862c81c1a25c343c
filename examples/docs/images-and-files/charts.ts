import { pngImage } from "../../../test/helpers/pngImage";

/** Draws a metric's chart as a PNG (a small solid image here, made in memory). */
export async function renderChart(metric: string): Promise<Buffer> {
  return pngImage(8 + metric.length, 6);
}

// #region tool
import { ImageContent, tool } from "toolwright";

class Charts {
  /** Draws the metric's chart. */
  @tool
  async chart(metric: string): Promise<Array<string | ImageContent>> {
    const png = await renderChart(metric); // a Buffer
    return [`Chart of ${metric}:`, ImageContent.fromBytes(png)];
  }
}
// #endregion

export { Charts };
