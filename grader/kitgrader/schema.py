"""A small JSON-schema checker: the subset grader/results.schema.json uses.

Keywords: type (string or list), properties, required, additionalProperties (bool or a
schema), items, enum, minimum, maximum, minLength, pattern, $ref to "#/definitions/NAME".
Returns a list of problems, each with the JSON path; an empty list means valid.
"""
import re

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def validate(value, schema, root=None, path="$"):
    root = root if root is not None else schema
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/definitions/"):
            return [f"{path}: unsupported $ref {ref}"]
        return validate(value, root["definitions"][ref.split("/")[-1]], root, path)
    problems = []
    want = schema.get("type")
    if want:
        kinds = want if isinstance(want, list) else [want]
        if not any(TYPES[k](value) for k in kinds):
            return [f"{path}: expected {' or '.join(kinds)}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{path}: {value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{path}: {value} is above the maximum {schema['maximum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            problems.append(f"{path}: shorter than {schema['minLength']} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            problems.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                problems.append(f"{path}: missing required '{key}'")
        extra = schema.get("additionalProperties", True)
        for key, v in value.items():
            if key in props:
                problems += validate(v, props[key], root, f"{path}.{key}")
            elif extra is False:
                problems.append(f"{path}: unexpected property '{key}'")
            elif isinstance(extra, dict):
                problems += validate(v, extra, root, f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            problems += validate(v, schema["items"], root, f"{path}[{i}]")
    return problems
