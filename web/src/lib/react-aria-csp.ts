/**
 * React Aria adds a <style id="react-aria-pressable-style"> to the page the first time one of its
 * pressable controls mounts (a touch-action rule). The console's Content-Security-Policy allows
 * no inline style, so the browser would refuse it and log a violation. The same rule is in
 * components/work.css; an element with that id tells React Aria it is already present.
 */
const STYLE_ID = 'react-aria-pressable-style';

if (typeof document !== 'undefined' && !document.getElementById(STYLE_ID)) {
  const marker = document.createElement('meta');
  marker.id = STYLE_ID;
  document.head.append(marker);
}
