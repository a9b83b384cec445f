import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getParent, endSession } from "~/utils/auth.server";

/** Sign out is a POST (a link cannot sign anyone out). A GET just goes to the dashboard's confirmation. */
export async function loader() {
  return redirect("/kids-device?modal=logout");
}

export async function action(args: ActionFunctionArgs) {
  const auth = await getParent(args);
  const setCookie = await endSession(args);
  const hideGoogle = auth?.parent.hide_google === 1;
  return redirect(hideGoogle ? "/login?hideGBtn=true" : "/login", { headers: { "Set-Cookie": setCookie } });
}
