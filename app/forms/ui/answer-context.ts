import { createContext, useContext } from "react";

/**
 * What a form's answer tells its fields beyond their errors (./LeadForm.tsx provides it): the
 * upload field whose chosen photos the refused page lost (a file input cannot be filled again;
 * without JavaScript the page is new, with it the input keeps them and this is null).
 */
export const PhotosDroppedContext = createContext<string | null>(null);

export const CHOOSE_PHOTOS_AGAIN = "Choose your photos again.";

export function usePhotosDropped(field: string): boolean {
  return useContext(PhotosDroppedContext) === field;
}
