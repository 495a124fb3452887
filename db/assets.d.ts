// Files imported with `with { type: "file" }` resolve to a path (inside the executable once compiled).
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.data" {
  const path: string;
  export default path;
}
declare module "*.tar.gz" {
  const path: string;
  export default path;
}
