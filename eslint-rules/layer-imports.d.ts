// Types of layer-imports.js for the architecture test (test/architecture/layers.test.ts).
export declare const LAYERS: Record<string, string[]>;
export declare function allowedLayers(layers?: Record<string, string[]>): Map<string, Set<string>>;
export declare function layerOf(repoPath: string): string | undefined;
