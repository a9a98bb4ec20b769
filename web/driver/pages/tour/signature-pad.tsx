// A signature drawn with a finger (or mouse, or pen) on a canvas through pointer events; handed up as base64 PNG.
import { useRef } from 'react';

export function SignaturePad({ label, hint, onChange, clearLabel }: { label: string; hint: string; clearLabel: string; onChange: (png: string | null) => void }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const drawn = useRef(false);

  /** Sized to the canvas's box at the first touch: the dialog is not laid out yet when this mounts. */
  const prepare = (canvas: HTMLCanvasElement) => {
    // Drawn at the device's pixel ratio so the line stays sharp; the CSS size stays the same.
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    const width = Math.round(canvas.clientWidth * ratio);
    const height = Math.round(canvas.clientHeight * ratio);
    if (drawn.current || (canvas.width === width && canvas.height === height)) return;
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d')!;
    context.scale(ratio, ratio);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#111827';
  };

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const down = (event: React.PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    prepare(event.currentTarget);
    drawing.current = true;
    const { x, y } = point(event);
    const context = event.currentTarget.getContext('2d')!;
    context.beginPath();
    context.moveTo(x, y);
  };
  const move = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const { x, y } = point(event);
    const context = event.currentTarget.getContext('2d')!;
    context.lineTo(x, y);
    context.stroke();
    drawn.current = true;
  };
  const up = () => {
    if (!drawing.current) return;
    drawing.current = false;
    if (drawn.current) onChange(ref.current!.toDataURL('image/png').replace(/^data:image\/png;base64,/, ''));
  };
  const clear = () => {
    const canvas = ref.current!;
    canvas.getContext('2d')!.clearRect(0, 0, canvas.width, canvas.height);
    drawn.current = false;
    onChange(null);
  };

  return (
    <div className="field">
      <span className="label" id="signature-label">
        {label}
      </span>
      <span className="hint" id="signature-hint">
        {hint}
      </span>
      <canvas
        ref={ref}
        className="drv-signature"
        role="img"
        aria-labelledby="signature-label"
        aria-describedby="signature-hint"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <button type="button" className="btn" onClick={clear}>
        {clearLabel}
      </button>
    </div>
  );
}
