import { ForbiddenError } from '../errors';
import type { Layer } from '../cascade/layer';

export class LayerReadOnlyError extends ForbiddenError {
  readonly layer: Layer;
  constructor(layer: Layer, why: string) {
    super(`The ${layer} layer is read-only for you: ${why}`);
    this.layer = layer;
  }
}
