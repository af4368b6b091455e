// class-transformer ships its metadata storage without a typed subpath; this is the part we read.
declare module 'class-transformer/cjs/storage.js' {
  export const defaultMetadataStorage: {
    findTypeMetadata(target: Function, propertyName: string): { typeFunction?: (options?: unknown) => Function; reflectedType?: unknown } | undefined;
  };
}
