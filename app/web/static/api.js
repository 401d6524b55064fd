// Calls to the AssetOps API with the page's key, and server errors turned into sentences.
"use strict";

const STATUS_WORDS = {
  401: "The API key was not accepted. Paste the key `make run` printed (also in var/data/local_api_key) and press Use key.",
  403: "This API key may not do that.",
  404: "That was not found: it may have been deleted, or it belongs to another API key.",
  409: "A turn is already running in this session. Wait for its answer, then send again.",
  413: "That request is too large for the server. Shorten the message and try again.",
  429: "Too many requests just now. Wait a few seconds and try again.",
  503: "The service is not ready (its database or engine is down). Try again in a moment.",
};

function fieldName(loc) {
  const names = { content: "The message", reference_date: "The reference date", title: "The title" };
  const last = (loc || []).filter((p) => p !== "body").slice(-1)[0];
  return names[last] || (last ? `The field "${last}"` : "The request");
}

/** One sentence for a 422 body: which field and what is wrong with it, never the raw JSON. */
function validationSentence(body) {
  const first = Array.isArray(body.detail) ? body.detail[0] : null;
  if (!first) return "The server could not accept that request.";
  const ctx = first.ctx || {};
  let problem = (first.msg || "is not valid").replace(/^Value error, /, "");
  if (first.type === "string_too_long") problem = `is too long (at most ${Number(ctx.max_length || 0).toLocaleString()} characters)`;
  else if (first.type === "string_too_short") problem = "is empty";
  else if (/date/.test(first.type || "")) problem = "is not a valid date (use a year between 2000 and 2100)";
  else problem = problem.charAt(0).toLowerCase() + problem.slice(1);
  return `${fieldName(first.loc)} ${problem}.`;
}

class ApiError extends Error {
  constructor(status, sentence) { super(sentence); this.status = status; }
}

async function errorSentence(response) {
  let body = null;
  try { body = await response.json(); } catch (e) { /* not JSON */ }
  if (response.status === 422 && body) return validationSentence(body);
  if (body && typeof body.detail === "string" && response.status !== 401) return body.detail.replace(/\s*$/, "").replace(/([^.!?])$/, "$1.");
  return STATUS_WORDS[response.status] || `The server answered ${response.status} ${response.statusText}.`;
}

function authHeaders(key, json) {
  const h = {};
  if (key) h.Authorization = "Bearer " + key;
  if (json) h["Content-Type"] = "application/json";
  return h;
}

/** fetch() with the key; throws ApiError carrying a sentence a person can act on. */
async function apiFetch(key, path, options = {}) {
  let response;
  try {
    response = await fetch(path, { ...options, headers: { ...authHeaders(key, options.body), ...(options.headers || {}) } });
  } catch (e) {
    throw new ApiError(0, "The service cannot be reached. Check that it is running (make run) and reload the page.");
  }
  if (!response.ok) throw new ApiError(response.status, await errorSentence(response));
  return response;
}
