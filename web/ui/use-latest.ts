// The latest value of a prop for callbacks registered once (a stream's listener, a map's click handler): updated
// after each render, read when the callback fires.
import { useLayoutEffect, useRef, type RefObject } from 'react';

export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
