// nivo's bar chart, for the server only: the charts reach the browser as the SVG markup the server rendered
// (render.server.tsx), so the client bundle never carries nivo (a `.server` module is empty in it).
export { Bar } from "@nivo/bar";
