// What test/build/marketplace.test.mjs uses of vsce's VSIX reader, which ships
// no declarations: the entries of a VSIX, and its two manifests as vsce reads
// them (the XML one as xml2js parses it: every element a list).
declare module '@vscode/vsce/out/zip.js' {
  /** The entries whose lower-cased names pass `filter`, by that name. */
  export function readZip(packagePath: string, filter: (name: string) => boolean): Promise<Map<string, Buffer>>;

  export interface VsixManifestXml {
    PackageManifest: {
      Metadata: {
        Identity: { $: { Publisher: string; Id: string; Version: string } }[];
        DisplayName: string[];
        Description: { _: string }[];
        Tags: string[];
        Categories: string[];
        GalleryFlags: string[];
        Properties: { Property: { $: { Id: string; Value: string } }[] }[];
      }[];
      Assets: { Asset: { $: { Type: string; Path: string } }[] }[];
    };
  }

  /** package.json and extension.vsixmanifest of a VSIX, the first validated as vsce packages it. */
  export function readVSIXPackage(packagePath: string): Promise<{
    manifest: { publisher: string; name: string; version: string; license?: string; [key: string]: unknown };
    xmlManifest: VsixManifestXml;
  }>;
}
