// A camera photo made smaller on the phone before it is queued: at most 1600 px on its longer side, JPEG — a few
// hundred KB instead of several MB, well under the API's 5 MiB, and cheap to keep in IndexedDB while offline.
export const MAX_SIDE = 1600;

export const fitWithin = (width: number, height: number, max = MAX_SIDE): { width: number; height: number } => {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
};

/** The photo as base64 JPEG (no data: prefix), the API's proof.photo. */
export async function resizePhoto(file: Blob, quality = 0.8): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const size = fitWithin(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas unavailable');
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  return canvas.toDataURL('image/jpeg', quality).replace(/^data:image\/jpeg;base64,/, '');
}

/** BarcodeDetector (Chrome on Android) where the browser has it; typing is the fallback everywhere else. */
interface Detector {
  detect(source: ImageBitmap): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options?: { formats?: string[] }) => Detector;

export const canScan = (): boolean => typeof (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector === 'function';

export async function scanCode(file: Blob): Promise<string | null> {
  const Barcode = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Barcode) return null;
  const bitmap = await createImageBitmap(file);
  try {
    const found = await new Barcode().detect(bitmap);
    return found[0]?.rawValue ?? null;
  } finally {
    bitmap.close();
  }
}
