// Stands in for the classic theme's prism-include-languages client module (see ./index.ts).
export {};
