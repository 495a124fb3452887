import { useEffect, useRef, useState } from 'react';
import { IMAGE_TYPES } from './chat-api';
import './chat-image.css';

// The reply box's image: the chosen file, its preview (spec section 9: 200 px high) and the
// control that picks it. The file stays in the browser until Send.

/** The chosen image and a local address to preview it by, released when the choice changes. */
export function useImageChoice() {
  const [file, setFile] = useState<File>();
  const [previewURL, setPreviewURL] = useState<string>();

  useEffect(() => {
    if (!file) {
      setPreviewURL(undefined);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewURL(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return { file, previewURL, choose: setFile, clear: () => setFile(undefined) };
}

type AttachImageButtonProps = {
  disabled: boolean;
  onChoose: (file: File) => void;
};

/** A button that opens the file picker, limited to the spec's image types. */
export function AttachImageButton({ disabled, onChoose }: AttachImageButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        id="chat-image"
        type="file"
        hidden
        accept={IMAGE_TYPES.join(',')}
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          // Cleared so choosing the same file again still reports a change.
          event.target.value = '';
          if (chosen) onChoose(chosen);
        }}
      />
      <button type="button" className="button button--secondary" disabled={disabled} onClick={() => input.current?.click()}>
        Attach Image
      </button>
    </>
  );
}

type ImagePreviewProps = {
  file: File;
  url: string | undefined;
  disabled: boolean;
  onRemove: () => void;
};

export function ImagePreview({ file, url, disabled, onRemove }: ImagePreviewProps) {
  return (
    <figure className="chat-image-preview">
      {url && <img className="chat-image-preview__image" src={url} alt="Preview of the image to send" />}
      <figcaption className="chat-image-preview__caption">
        <span className="chat-image-preview__name">{file.name}</span>
        <button type="button" className="link-button" disabled={disabled} onClick={onRemove}>
          Remove image
        </button>
      </figcaption>
    </figure>
  );
}
