import { refuseInternalSubset } from '../dataplane/codecs/formats/xml-text.js';
import { XMLValidator } from 'fast-xml-parser';
const text = '<a>' + '<!DOCTYPE '.repeat(20000);
let t0 = performance.now();
try { refuseInternalSubset(text, () => ''); } catch (e) { console.log('threw', (e as Error).message); }
console.log('refuseInternalSubset', Math.round(performance.now() - t0));
t0 = performance.now();
XMLValidator.validate(text);
console.log('validator', Math.round(performance.now() - t0));
const t2 = '<a>' + '<!-- '.repeat(20000);
t0 = performance.now(); XMLValidator.validate(t2); console.log('validator comments', Math.round(performance.now() - t0));
