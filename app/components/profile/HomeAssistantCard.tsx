import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { useIsSubmitting } from "~/utils/hooks";

export interface HomeAssistantData {
  /** MQTT_URL is set: the bridge runs. */
  available: boolean;
  enabled: boolean;
  topicPrefix: string;
  discoveryPrefix: string;
}

/**
 * The family's Home Assistant bridge on /parent-profile (issue 56 item 5; docs/home-assistant.md): on or off, and the
 * MQTT topic prefix of its states and commands. Works without JavaScript (a form posting to the page's action).
 */
export function HomeAssistantCard({ data, error }: { data: HomeAssistantData; error: string | null }) {
  const busy = useIsSubmitting({ intent: "home-assistant" });
  return (
    <section className="card stack" aria-labelledby="home-assistant-title" id="home-assistant">
      <h2 id="home-assistant-title">Home Assistant</h2>
      <p className="muted small">
        {data.available
          ? `Each kid appears in Home Assistant (MQTT discovery, prefix "${data.discoveryPrefix}") with screen time, time left, battery, online, location, sleep mode and protection switches, and lock, ring and locate buttons. Commands from Home Assistant act as you.`
          : "The server has no MQTT broker set (MQTT_URL), so Home Assistant cannot be reached yet. You can save your settings now; they apply once it is set."}
      </p>
      <Form method="post" className="stack" preventScrollReset noValidate>
        <input type="hidden" name="intent" value="home-assistant" />
        <label className="choice">
          <input type="checkbox" name="enabled" value="on" defaultChecked={data.enabled} /> Show my kids in Home Assistant
        </label>
        <div className="field">
          <label htmlFor="home-assistant-prefix">Topic prefix</label>
          <input
            id="home-assistant-prefix"
            name="topicPrefix"
            type="text"
            defaultValue={data.topicPrefix}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={error ? "home-assistant-error home-assistant-help" : "home-assistant-help"}
            aria-invalid={error ? true : undefined}
          />
          {error ? (
            <p className="field-error" id="home-assistant-error" role="alert">
              {error}
            </p>
          ) : null}
          <p className="hint" id="home-assistant-help">
            States are published under &lt;prefix&gt;/&lt;kid id&gt;/state; letters, digits, - _ and / only.
          </p>
        </div>
        <SubmitButton busy={busy}>Save Home Assistant settings</SubmitButton>
      </Form>
    </section>
  );
}
