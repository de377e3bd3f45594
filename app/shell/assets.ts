import { createContext, useContext } from "react";

/**
 * Banner images may come from a CDN: ASSET_BASE_URL points at a host whose
 * banner-images folder mirrors public/banner-images. The root provides the base.
 */
export const AssetBaseContext = createContext("");

export function useBannerUrl(name: string): string {
  return `${useContext(AssetBaseContext)}/banner-images/${name}`;
}

export function assetUrl(path: string): string {
  return path;
}
