/** Version of the npm package (kept equal to package.json and the C++ core's). */
export const LIBRARY_VERSION = "0.1.0";
