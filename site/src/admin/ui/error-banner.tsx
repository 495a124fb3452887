type ErrorBannerProps = {
  message: string | undefined;
};

// role="alert" so a failed sign-in is announced without moving focus.
export function ErrorBanner({ message }: ErrorBannerProps) {
  if (!message) return null;
  return (
    <p className="alert alert--error" role="alert">
      {message}
    </p>
  );
}
