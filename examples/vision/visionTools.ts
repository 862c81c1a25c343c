import { existsSync } from "node:fs";
import { join } from "node:path";
import { ImageContent, tool } from "toolwright";

/** Where the example's product photos are: beside the source (run from source), or from dist/examples/vision back to it. */
export const photoDirectory = existsSync(join(__dirname, "photos")) ? join(__dirname, "photos") : join(__dirname, "..", "..", "..", "examples", "vision", "photos");

/** A returns desk whose tool hands the model a photo of the returned item. */
export class ReturnsDesk {
  constructor(private readonly photos: string = photoDirectory) {}

  /**
   * The photo the warehouse took of a returned item, for the model to look at.
   * @param orderId The order the item came back from, e.g. A-100.
   * @title Photo of a returned item
   * @readOnlyHint
   * @openWorldHint false
   */
  @tool({ name: "returned_item_photo" })
  async returnedItemPhoto(orderId: string): Promise<ImageContent> {
    if (!/^[A-Z]-\d{3}$/.test(orderId)) throw new Error(`no order ${JSON.stringify(orderId.slice(0, 20))}; order ids look like A-100`);
    return ImageContent.fromFile(join(this.photos, `${orderId}.png`), { detail: "low", meta: { orderId } });
  }
}
