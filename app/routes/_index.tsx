import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getParent } from "~/utils/auth.server";

/** `/` belongs to /login (spec 1 §2): signed-in parents go on to their dashboard. */
export async function loader(args: LoaderFunctionArgs) {
  return redirect((await getParent(args)) ? "/kids-device" : "/login");
}
