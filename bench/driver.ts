// `npm run bench -- driver`: the driver app's figures (bench/driver-app.ts).
import './driver-app.ts';
