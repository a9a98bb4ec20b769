// react-aria under our Content-Security-Policy (decision 1020): its press handling injects a <style> element with one
// rule (`touch-action` on pressable elements), which `style-src 'self'` blocks and reports. The same rule lives in
// styles.css; an element holding the id react-aria looks for tells it the rule is already there.
const STYLE_ID = 'react-aria-pressable-style';

export function markReactAriaStylesPresent(doc: Document = document): void {
  if (doc.getElementById(STYLE_ID)) return;
  const marker = doc.createElement('meta');
  marker.id = STYLE_ID;
  marker.name = 'react-aria-styles';
  marker.content = 'in styles.css';
  doc.head.append(marker);
}
