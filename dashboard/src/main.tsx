// The dashboard's entry: draws the app into the page.
import { render } from "preact";
import { App } from "./app.js";
import "./styles.css";

const root = document.getElementById("app");
if (root) render(<App />, root);
