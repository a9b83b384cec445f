import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppFrame } from "~/components/AppFrame";
import { appFrameData } from "~/components/app-frame.server";
import { requireParent } from "~/utils/auth.server";

/** The guarded area's frame: header with menu and kid switcher place, content, footer, logout confirmation. */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  return json(await appFrameData(args, parent));
}

export default function AppLayout() {
  const frame = useLoaderData<typeof loader>();
  return (
    <AppFrame {...frame}>
      <Outlet />
    </AppFrame>
  );
}
