-- wrk script: every request carries its own body, the next line of a file, so that no two
-- requests share a pending credential, a token or a code.
--
--   wrk -t T -c C -d D -s walk.lua URL -- BODIES PATH CONTENT_TYPE T KIND
--
-- The lines are dealt to the threads in turn (line i to thread i mod T): a line sent twice would
-- be a replay, which the server refuses, and the run would measure refusals instead of accepts.
-- A thread that has sent all its lines stops, rather than wrapping around into replays; the
-- summary says so ("exhausted"), and such a run was sized too small.
--
-- KIND says how an answer is judged: "otpkit" accepts HTTP 200 and names a refusal by the code at
-- the head of Identity Toolkit's error message; "privacyidea" reads result.authentication, since
-- privacyIDEA answers a wrong code with HTTP 200 too.

local threads = {}

function setup(thread)
   thread:set("id", #threads)
   table.insert(threads, thread)
end

function init(args)
   local file, path, content_type, count = args[1], args[2], args[3], tonumber(args[4])
   kind = args[5]
   bodies = {}
   local line_number = 0
   for line in io.lines(file) do
      if line_number % count == id then
         bodies[#bodies + 1] = line
      end
      line_number = line_number + 1
   end
   target = path
   headers = { ["Content-Type"] = content_type }
   sent = 0
   exhausted = 0
   outcomes = {}
end

function request()
   if sent >= #bodies then
      exhausted = 1
      wrk.thread:stop()
      -- wrk needs a request even now; the loop stops before it is answered.
      return wrk.format("GET", "/", nil, nil)
   end
   sent = sent + 1
   return wrk.format("POST", target, headers, bodies[sent])
end

local function judge(status, body)
   if kind == "privacyidea" then
      if status ~= 200 then
         return "HTTP " .. status
      end
      local verdict = body:match('"authentication"%s*:%s*"(%u+)"')
      if verdict then
         return verdict
      end
      return "no verdict"
   end
   if status == 200 then
      return "ACCEPT"
   end
   return body:match('"message"%s*:%s*"([%u_]+)') or ("HTTP " .. status)
end

function response(status, headers, body)
   local outcome = judge(status, body)
   outcomes[outcome] = (outcomes[outcome] or 0) + 1
end

function done(summary, latency, requests)
   local merged, lines, stopped = {}, 0, 0
   for _, thread in ipairs(threads) do
      for outcome, count in pairs(thread:get("outcomes")) do
         merged[outcome] = (merged[outcome] or 0) + count
      end
      lines = lines + thread:get("sent")
      stopped = stopped + thread:get("exhausted")
   end
   local parts = {}
   for outcome, count in pairs(merged) do
      parts[#parts + 1] = string.format('"%s":%d', outcome, count)
   end
   -- One JSON line for report.py; wrk's own summary stays above it for a reader.
   io.write(string.format(
      'RESULT {"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,'
         .. '"non2xx":%d,"socket_errors":%d,"timeouts":%d,"lines_sent":%d,"threads_exhausted":%d,"outcomes":{%s}}\n',
      summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(90) / 1e3,
      latency:percentile(99) / 1e3, latency.max / 1e3, summary.errors.status,
      summary.errors.connect + summary.errors.read + summary.errors.write, summary.errors.timeout,
      lines, stopped, table.concat(parts, ",")))
end
