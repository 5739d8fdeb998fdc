"""Writes the decoder's worst line (issue 12): one v1.1 status of about 3 MB with 2,000 hashtags, its entities
either at their places ("placed"), three characters off ("misplaced": each must be found again near where it claims
to be), or naming tokens the text does not hold ("absent": each is looked for and dropped).
Usage: make_entity_line.py OUT_DIR"""
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1])
parts, entities, position = [], [], 0
for i in range(2000):
    filler = "lorem ipsum dolor sit amet " * 55
    tag = f"#tag{i}"
    parts += [filler, tag + " "]
    entities.append((f"tag{i}", position + len(filler)))
    position += len(filler) + len(tag) + 1
status = {"id_str": "1", "created_at": "Wed Oct 10 20:19:24 +0000 2018", "full_text": "".join(parts),
          "user": {"screen_name": "a", "name": "A"}}
shapes = {
    "placed": [{"text": t, "indices": [s, s + len(t) + 1]} for t, s in entities],
    "misplaced": [{"text": t, "indices": [s + 3, s + len(t) + 4]} for t, s in entities],
    "absent": [{"text": "absent" + t, "indices": [s, s + len(t) + 7]} for t, s in entities],
}
for name, hashtags in shapes.items():
    (out / f"entities-{name}.json").write_text(json.dumps({**status, "entities": {"hashtags": hashtags}}) + "\n")
