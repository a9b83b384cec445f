import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PasswordLinkForm } from "~/utils/password-link-form";
import { passwordLinkAction, passwordLinkLoader } from "~/utils/password-links.server";

export const meta: MetaFunction = () => [{ title: "Set password · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  return passwordLinkLoader(args, "set-password");
}

export async function action(args: ActionFunctionArgs) {
  return passwordLinkAction(args, "set-password", "Your password has been set. Please sign in.");
}

export default function SetPassword() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <PasswordLinkForm title="Set your password" button="Update Password" {...data} lastResult={lastResult} />;
}
