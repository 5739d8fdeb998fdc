-- wrk: each request the next path of the file $PATHS_FILE (one per line). The file is cut into $PATHS_PARTS parts
-- (default 2) and each thread starts at its own: the first thread at part $PATHS_PART (default 0), the next at the
-- part after. Threads that all started at one place would ask the same path at the same moment, and half the
-- "different" queries would be repeats that find the term just recorded.
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
local parts = tonumber(os.getenv("PATHS_PARTS") or "2")
local started = 0

function setup(thread)
    thread:set("part", (tonumber(os.getenv("PATHS_PART") or "0") + started) % parts)
    started = started + 1
end

local i
request = function()
    i = (i or math.floor(part * #paths / parts)) % #paths + 1
    return wrk.format("GET", paths[i])
end
