import { useEffect, useState } from "react";
import { useNavigation } from "@remix-run/react";

/** False during server rendering and the first client render; true once React has hydrated. */
let hydrated = false;
export function useHydrated(): boolean {
  const [isHydrated, setIsHydrated] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setIsHydrated(true);
  }, []);
  return isHydrated;
}

/** True while this form (identified by its intent or action) is submitting. */
export function useIsSubmitting(opts: { formAction?: string; intent?: string } = {}): boolean {
  const navigation = useNavigation();
  if (navigation.state === "idle") return false;
  if (opts.intent && navigation.formData?.get("intent") !== opts.intent) return false;
  if (opts.formAction && navigation.formAction !== opts.formAction) return false;
  return (
    navigation.state === "submitting" ||
    (navigation.state === "loading" && navigation.formMethod != null && navigation.formMethod !== "GET")
  );
}
