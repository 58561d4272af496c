-- wrk script of the gateway case: POSTs one JSON-RPC request over and over, each under an id of its
-- own (MCP: an id is never reused within a session; with one id for all, an SDK-based gateway routes
-- every answer to the last of the concurrent requests and leaves the others waiting, see bench/README.md).
-- From the environment: WRK_BODY (the request, with "id":1 where the id goes), WRK_HEADERS (extra
-- headers, "name: value" lines), WRK_EXPECT (a string every good answer contains), WRK_ID_BASE (the
-- first id; each run gets its own, as a session sees several runs). An answer that is not 200 or lacks
-- WRK_EXPECT counts as an error; done() prints one JSON line with the figures.
local body = os.getenv("WRK_BODY")
local expect = os.getenv("WRK_EXPECT")
local extra = os.getenv("WRK_HEADERS") or ""

wrk.method = "POST"
wrk.body = body
local at = body:find('"id":1,', 1, true)
local before = at and body:sub(1, at + 4) or nil
local after = at and body:sub(at + 6) or nil
local nextId = tonumber(os.getenv("WRK_ID_BASE") or "") or os.time() * 1000
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
for line in extra:gmatch("[^\n]+") do
  local name, value = line:match("^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init()
  good = 0
  bad = 0
end

function request()
  if before == nil then return wrk.format() end
  nextId = nextId + 1
  return wrk.format(nil, nil, nil, before .. string.format("%d", nextId) .. after)
end

function response(status, headers, answer)
  if status == 200 and answer and answer:find(expect, 1, true) then
    good = good + 1
  else
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  local good_total, bad_total = 0, 0
  for _, thread in ipairs(threads) do
    good_total = good_total + thread:get("good")
    bad_total = bad_total + thread:get("bad")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"good":%d,"bad":%d,"socketErrors":%d,"p50Us":%d,"p99Us":%d,"meanUs":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, good_total, bad_total,
    e.connect + e.read + e.write + e.timeout + e.status,
    latency:percentile(50), latency:percentile(99), latency.mean, latency.max))
end
