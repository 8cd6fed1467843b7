"""Collects the real-world tool corpus: helpers called by regenerate.sh.

Subcommands:
  mcp OUT [--env K=V]... [--cwd DIR] -- CMD [ARG]...
      start an MCP server on stdio, list its tools with the `mcp` SDK's client (following
      `nextCursor`), write {"tools": [...]} with each `Tool` as the server sent it.
  bfcl OUT_DIR
      the function lists of the BFCL data files shipped in `bfcl-eval`, converted to OpenAI
      function tools the way BFCL's own OpenAI handler does.
  langchain OUT
      LangChain community tools with an `args_schema`, as OpenAI tools made by
      `langchain_core.utils.function_calling.convert_to_openai_tool`.

Output is deterministic: JSON with two-space indents, tools in the order the source gives them,
exact duplicates (same JSON) dropped.
"""

import asyncio
import json
import os
import sys


def write(path, tools):
    """Writes `{"tools": tools}` to `path`, dropping exact duplicates, keeping order."""
    seen, kept = set(), []
    for tool in tools:
        key = json.dumps(tool, sort_keys=True)
        if key not in seen:
            seen.add(key)
            kept.append(tool)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"tools": kept}, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"{path}: {len(kept)} tools", file=sys.stderr)


async def list_mcp(command, args, env, cwd):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=command, args=args, env=env, cwd=cwd)
    errlog = open(os.devnull, "w") if os.environ.get("QUIET") else sys.stderr
    tools = []
    async with stdio_client(params, errlog=errlog) as streams:
        read, write_stream = streams[0], streams[1]
        async with ClientSession(read, write_stream) as session:
            await session.initialize()
            cursor = None
            while True:
                from mcp.types import PaginatedRequestParams

                page = await session.list_tools(
                    params=PaginatedRequestParams(cursor=cursor) if cursor else None
                )
                tools.extend(
                    t.model_dump(by_alias=True, exclude_unset=True, mode="json")
                    for t in page.tools
                )
                cursor = page.next_cursor
                if not cursor:
                    break
    return tools


def cmd_mcp(argv):
    out = argv[0]
    env, cwd, i = {}, None, 1
    while argv[i] != "--":
        if argv[i] == "--env":
            k, _, v = argv[i + 1].partition("=")
            env[k] = v
        elif argv[i] == "--cwd":
            cwd = argv[i + 1]
        i += 2
    command, args = argv[i + 1], argv[i + 2 :]
    full_env = dict(os.environ)
    full_env.update(env)
    tools = asyncio.run(asyncio.wait_for(list_mcp(command, args, full_env, cwd), 180))
    if not tools:
        sys.exit(f"{out}: the server listed no tools")
    write(out, tools)


def bfcl_functions(path):
    """The function documents of one BFCL data file (JSON lines), in order."""
    functions = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                return []  # not a JSON-lines data file (a list of test ids)
            if "function" in entry:  # a test case: the functions offered with it
                fns = entry["function"] or []
                functions.extend(fns if isinstance(fns, list) else [fns])
            elif "name" in entry:  # a function document (the multi-turn APIs)
                functions.append(entry)
    return functions


def cmd_bfcl(argv):
    """Each BFCL data file's functions as the OpenAI Chat tools BFCL's OpenAI handler sends:
    `convert_to_tool(functions, GORILLA_TO_OPENAPI, ModelStyle.OPENAI_COMPLETIONS)`, the
    handler's own conversion of BFCL's type names (`dict`, `float`, `tuple`, ...)."""
    out_dir = argv[0]
    import bfcl_eval
    from bfcl_eval.constants.enums import ModelStyle
    from bfcl_eval.constants.type_mappings import GORILLA_TO_OPENAPI
    from bfcl_eval.model_handler.utils import convert_to_tool

    data = os.path.join(os.path.dirname(bfcl_eval.__file__), "data")
    files = [n for n in sorted(os.listdir(data)) if n.startswith("BFCL_") and n.endswith(".json")]
    docs = os.path.join(data, "multi_turn_func_doc")
    files += [os.path.join("multi_turn_func_doc", n) for n in sorted(os.listdir(docs))]
    seen = set()  # a function offered by several test cases or files is kept once
    for name in files:
        tools = []
        for fn in bfcl_functions(os.path.join(data, name)):
            key = json.dumps(fn, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            try:
                tools.extend(convert_to_tool([fn], GORILLA_TO_OPENAPI, ModelStyle.OPENAI_COMPLETIONS))
            except Exception as e:  # the handler itself cannot send it
                print(f"{name}: {fn.get('name')}: skipped by BFCL's converter: {e!r}", file=sys.stderr)
        if tools:
            stem = os.path.basename(name)[: -len(".json")]
            if name.startswith("multi_turn_func_doc"):
                stem = "multi_turn_func_doc_" + stem
            write(os.path.join(out_dir, stem + ".json"), tools)


def cmd_langchain(argv):
    import importlib
    import inspect
    import pkgutil
    import warnings

    warnings.filterwarnings("ignore")
    import langchain_community.tools as lc_tools
    from langchain_core.tools import BaseTool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    classes = {}
    for mod in pkgutil.walk_packages(lc_tools.__path__, lc_tools.__name__ + "."):
        try:
            module = importlib.import_module(mod.name)
        except Exception:
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseTool) and cls.__module__.startswith("langchain_community"):
                classes[f"{cls.__module__}.{cls.__qualname__}"] = cls
    tools = []
    for qual in sorted(classes):
        cls = classes[qual]
        fields = getattr(cls, "model_fields", {})
        schema = fields.get("args_schema")
        name = fields.get("name")
        description = fields.get("description")
        if schema is None or schema.default is None or name is None:
            continue
        if not isinstance(name.default, str) or not name.default:
            continue
        args_schema = schema.default
        if not (inspect.isclass(args_schema) and hasattr(args_schema, "model_json_schema")):
            continue
        try:
            # The tool's own name and description, over the argument model's title and doc.
            tool = convert_to_openai_tool(
                {
                    **args_schema.model_json_schema(),
                    "title": name.default,
                    "description": description.default
                    if description and isinstance(description.default, str)
                    else "",
                }
            )
        except Exception as e:  # a schema pydantic cannot write is not a tool of the corpus
            print(f"{qual}: skipped: {e}", file=sys.stderr)
            continue
        tools.append(tool)
    write(argv[0], tools)


if __name__ == "__main__":
    {"mcp": cmd_mcp, "bfcl": cmd_bfcl, "langchain": cmd_langchain}[sys.argv[1]](sys.argv[2:])
