#!/usr/bin/env python3
"""The public API of a crate, one line per item, read from rustdoc's JSON output.

Usage: public_api.py CRATE.json > api.txt

Every item a user can name is listed under every path that reaches it (a re-export is a path of
its own: the count of paths is what "one path per item" is measured by), with its kind and, for
functions, fields, constants and type aliases, its signature. Trait implementations are listed
by trait; auto and blanket implementations are left out (they follow from the rest). Items
hidden from the docs are listed with a `#[doc(hidden)]` mark, since code can still name them.

The output is sorted, so that a diff of two listings is the change to the public API.
"""

import json
import sys


def render_generic_args(args):
    if not args:
        return ""
    if "angle_bracketed" in args:
        parts = []
        for arg in args["angle_bracketed"]["args"]:
            if "lifetime" in arg:
                parts.append(arg["lifetime"])
            elif "type" in arg:
                parts.append(render_type(arg["type"]))
            elif "const" in arg:
                parts.append(arg["const"].get("expr", "_"))
            else:
                parts.append("_")
        for c in args["angle_bracketed"].get("constraints", []):
            binding = c.get("binding", {})
            if "equality" in binding:
                term = binding["equality"]
                value = render_type(term["type"]) if "type" in term else "_"
                parts.append(f"{c['name']} = {value}")
            else:
                parts.append(f"{c['name']}: {render_bounds(binding.get('constraint', []))}")
        return "<" + ", ".join(parts) + ">" if parts else ""
    if "parenthesized" in args:
        inputs = ", ".join(render_type(t) for t in args["parenthesized"]["inputs"])
        output = args["parenthesized"].get("output")
        return f"({inputs})" + (f" -> {render_type(output)}" if output else "")
    return ""


def render_path(path):
    # The last segment only: how the source happens to spell a path (`crate::schema::Schema`,
    # `Schema`) is no change to the API.
    name = path["path"].split("::")[-1]
    return name + render_generic_args(path.get("args"))


def render_bounds(bounds):
    out = []
    for b in bounds:
        if "trait_bound" in b:
            modifier = "?" if b["trait_bound"].get("modifier") == "maybe" else ""
            out.append(modifier + render_path(b["trait_bound"]["trait"]))
        elif "outlives" in b:
            out.append(b["outlives"])
        elif "use" in b:
            out.append("use<..>")
    return " + ".join(out)


def render_type(t):
    if t is None:
        return "()"
    if "resolved_path" in t:
        return render_path(t["resolved_path"])
    if "primitive" in t:
        return t["primitive"]
    if "generic" in t:
        return t["generic"]
    if "borrowed_ref" in t:
        r = t["borrowed_ref"]
        lifetime = (r["lifetime"] + " ") if r.get("lifetime") else ""
        mutable = "mut " if r["is_mutable"] else ""
        return f"&{lifetime}{mutable}{render_type(r['type'])}"
    if "raw_pointer" in t:
        r = t["raw_pointer"]
        return f"*{'mut' if r['is_mutable'] else 'const'} {render_type(r['type'])}"
    if "tuple" in t:
        inner = ", ".join(render_type(x) for x in t["tuple"])
        return f"({inner}{',' if len(t['tuple']) == 1 else ''})"
    if "slice" in t:
        return f"[{render_type(t['slice'])}]"
    if "array" in t:
        return f"[{render_type(t['array']['type'])}; {t['array']['len']}]"
    if "impl_trait" in t:
        return "impl " + render_bounds(t["impl_trait"])
    if "dyn_trait" in t:
        traits = " + ".join(render_path(p["trait"]) for p in t["dyn_trait"]["traits"])
        lifetime = t["dyn_trait"].get("lifetime")
        return "dyn " + traits + (f" + {lifetime}" if lifetime else "")
    if "qualified_path" in t:
        q = t["qualified_path"]
        trait = q.get("trait")
        self_type = render_type(q["self_type"])
        if trait:
            return f"<{self_type} as {render_path(trait)}>::{q['name']}"
        return f"{self_type}::{q['name']}"
    if "function_pointer" in t:
        sig = t["function_pointer"]["sig"]
        return "fn" + render_sig(sig)
    if "infer" in t:
        return "_"
    return "?"


def render_sig(sig):
    inputs = ", ".join(
        name if name == "self" else f"{name}: {render_type(ty)}"
        for name, ty in sig["inputs"]
    )
    out = f"({inputs})"
    if sig.get("output") is not None:
        out += " -> " + render_type(sig["output"])
    return out


def render_generics(generics):
    params = []
    for p in generics.get("params", []):
        kind = p["kind"]
        if "lifetime" in kind:
            params.append(p["name"])
        elif "type" in kind:
            if kind["type"].get("is_synthetic"):
                continue
            bounds = render_bounds(kind["type"].get("bounds", []))
            params.append(p["name"] + (f": {bounds}" if bounds else ""))
        elif "const" in kind:
            params.append(f"const {p['name']}: {render_type(kind['const']['type'])}")
    return "<" + ", ".join(params) + ">" if params else ""


class Lister:
    def __init__(self, doc):
        self.index = doc["index"]
        self.paths = doc["paths"]
        self.lines = set()
        self.walking = set()

    def item(self, item_id):
        return self.index.get(str(item_id))

    def hidden(self, item):
        for attr in item.get("attrs", []):
            text = attr if isinstance(attr, str) else json.dumps(attr)
            if "doc(hidden)" in text.replace(" ", "") or "hidden" == text:
                return True
        return False

    def add(self, line, hidden):
        self.lines.add(line + ("  #[doc(hidden)]" if hidden else ""))

    def walk_module(self, module_id, prefix, hidden):
        key = (module_id, prefix)
        if key in self.walking:
            return
        self.walking.add(key)
        module = self.item(module_id)
        for child_id in module["inner"]["module"]["items"]:
            child = self.item(child_id)
            if child is None:
                continue
            inner_kind = next(iter(child["inner"]))
            if inner_kind == "use":
                if child["visibility"] != "public":
                    continue
                use = child["inner"]["use"]
                target = self.item(use["id"]) if use.get("id") is not None else None
                child_hidden = hidden or self.hidden(child)
                if use["is_glob"]:
                    if target is not None and "module" in target["inner"]:
                        self.walk_module(use["id"], prefix, child_hidden)
                    else:
                        self.add(f"pub use {prefix}::{use['source']}::*", child_hidden)
                elif target is not None:
                    self.emit(target, f"{prefix}::{use['name']}", child_hidden)
                else:
                    self.add(f"pub use {prefix}::{use['name']} = {use['source']}", child_hidden)
            elif child["visibility"] == "public" and child.get("name"):
                self.emit(child, f"{prefix}::{child['name']}", hidden or self.hidden(child))

    def impls(self, impl_ids, path, hidden):
        for impl_id in impl_ids:
            impl = self.item(impl_id)
            if impl is None:
                continue
            data = impl["inner"]["impl"]
            if data.get("is_synthetic") or data.get("blanket_impl") is not None:
                continue
            if data.get("trait") is None:
                for method_id in data["items"]:
                    method = self.item(method_id)
                    if method is None or method["visibility"] != "public":
                        continue
                    self.assoc(method, f"{path}::{method['name']}", hidden or self.hidden(method))
            else:
                trait = render_path(data["trait"])
                negative = "!" if data.get("is_negative") else ""
                generics = render_generics(data["generics"])
                self.add(f"impl{generics} {negative}{trait} for {render_type(data['for'])}", hidden)

    def assoc(self, item, path, hidden):
        inner = item["inner"]
        if "function" in inner:
            f = inner["function"]
            header = f.get("header", {})
            quals = ("const " if header.get("is_const") else "") + (
                "async " if header.get("is_async") else ""
            )
            self.add(f"{quals}fn {path}{render_generics(f['generics'])}{render_sig(f['sig'])}", hidden)
        elif "assoc_const" in inner:
            self.add(f"const {path}: {render_type(inner['assoc_const']['type'])}", hidden)
        elif "assoc_type" in inner:
            bounds = render_bounds(inner["assoc_type"].get("bounds", []))
            self.add(f"type {path}" + (f": {bounds}" if bounds else ""), hidden)

    def emit(self, item, path, hidden):
        inner = item["inner"]
        kind = next(iter(inner))
        data = inner[kind]
        if kind == "module":
            self.add(f"mod {path}", hidden)
            self.walk_module(item["id"], path, hidden)
        elif kind == "struct":
            generics = render_generics(data["generics"])
            non_exhaustive = " #[non_exhaustive]" if "non_exhaustive" in json.dumps(item["attrs"]) else ""
            self.add(f"struct {path}{generics}{non_exhaustive}", hidden)
            struct_kind = data["kind"]
            fields = []
            if isinstance(struct_kind, dict) and "plain" in struct_kind:
                fields = struct_kind["plain"]["fields"]
            elif isinstance(struct_kind, dict) and "tuple" in struct_kind:
                fields = [f for f in struct_kind["tuple"] if f is not None]
            for field_id in fields:
                field = self.item(field_id)
                if field is not None and field["visibility"] == "public":
                    self.add(f"field {path}.{field['name']}: {render_type(field['inner']['struct_field'])}", hidden)
            self.impls(data["impls"], path, hidden)
        elif kind == "enum":
            non_exhaustive = " #[non_exhaustive]" if "non_exhaustive" in json.dumps(item["attrs"]) else ""
            self.add(f"enum {path}{render_generics(data['generics'])}{non_exhaustive}", hidden)
            for variant_id in data["variants"]:
                variant = self.item(variant_id)
                if variant is None:
                    continue
                vkind = variant["inner"]["variant"]["kind"]
                shape = ""
                if isinstance(vkind, dict) and "tuple" in vkind:
                    types = [
                        render_type(self.item(f)["inner"]["struct_field"]) for f in vkind["tuple"] if f is not None
                    ]
                    shape = "(" + ", ".join(types) + ")"
                elif isinstance(vkind, dict) and "struct" in vkind:
                    fields = [self.item(f) for f in vkind["struct"]["fields"]]
                    shape = " { " + ", ".join(
                        f"{f['name']}: {render_type(f['inner']['struct_field'])}" for f in fields if f
                    ) + " }"
                self.add(f"variant {path}::{variant['name']}{shape}", hidden or self.hidden(variant))
            self.impls(data["impls"], path, hidden)
        elif kind == "union":
            self.add(f"union {path}", hidden)
            self.impls(data["impls"], path, hidden)
        elif kind == "trait":
            sealed = ""
            self.add(f"trait {path}{render_generics(data['generics'])}{sealed}", hidden)
            for member_id in data["items"]:
                member = self.item(member_id)
                if member is not None:
                    self.assoc(member, f"{path}::{member['name']}", hidden or self.hidden(member))
        elif kind == "function":
            self.assoc(item, path, hidden)
        elif kind == "constant":
            self.add(f"const {path}: {render_type(data['type'])}", hidden)
        elif kind == "static":
            self.add(f"static {path}: {render_type(data['type'])}", hidden)
        elif kind == "type_alias":
            self.add(f"type {path}{render_generics(data['generics'])} = {render_type(data['type'])}", hidden)
        elif kind in ("macro", "proc_macro"):
            self.add(f"macro {path}", hidden)
        elif kind == "trait_alias":
            self.add(f"trait alias {path}", hidden)
        else:
            self.add(f"{kind} {path}", hidden)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: public_api.py CRATE.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    root = doc["index"][str(doc["root"])]
    lister = Lister(doc)
    lister.walk_module(doc["root"], root["name"], False)
    for line in sorted(lister.lines):
        print(line)


if __name__ == "__main__":
    main()
