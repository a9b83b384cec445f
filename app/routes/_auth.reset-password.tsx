import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PasswordLinkForm } from "~/utils/password-link-form";
import { PASSWORD_RESET_MESSAGE, passwordLinkAction, passwordLinkLoader } from "~/utils/password-links.server";

export const meta: MetaFunction = () => [{ title: "Reset password · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  return passwordLinkLoader(args, "reset-password");
}

export async function action(args: ActionFunctionArgs) {
  return passwordLinkAction(args, "reset-password", PASSWORD_RESET_MESSAGE);
}

export default function ResetPassword() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <PasswordLinkForm title="Reset your password" button="Change Password" {...data} lastResult={lastResult} />;
}
