-- wrk: each request the next path of the file $PATHS_FILE (one per line), starting at a random one.
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
local i = math.random(#paths)
request = function()
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end
