// rules/main.js: the How to play page: its words come translated from the server with the page; the
// header's links and language picker are the shared ones.

import { drawNav } from "../components/nav.js";

drawNav(document.getElementById("site-nav"));
