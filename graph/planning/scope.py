"""Which assets a turn is about when the message names none: the focus, "the others", or the whole site.

An engineer who says "one of the chillers is overheating" or "which units worry you?" expects every
monitored chiller to be looked at and ranked, not a question back. After such a look, "why that one?"
means the chiller that stood out. A question back is left for the one case nothing can decide: a
reference to an earlier chiller when none was discussed.
"""

from __future__ import annotations

import re

from graph.planning.artifacts import alert_totals, ranked_assets, reading_means
from graph.planning.context import NO_TELEMETRY_INTENTS, TELEMETRY_INTENTS, PlanContext
from graph.understanding.assets import known_assets, telemetry_assets
from graph.understanding.fleet_subset import telemetry_subset
from graph.understanding.request import asks_repeat, pick_end
from graph.understanding.sensors import find_sensors
from graph.understanding.text import Text

# Alert rules are evaluated on telemetry, so only chillers with telemetry have alerts to look at.
_ALERT_INTENTS = frozenset({"alerts", "alert_to_failure", "thresholds", "monitor"})


def fleet_assets(ctx: PlanContext) -> list[str]:
    """The site's chillers the turn's work applies to: the side the message names ("of the monitored
    chillers", "the units we don't have sensors on"), else telemetry ones for analyses and alerts, all of
    them for work orders."""
    subset = telemetry_subset(ctx.understanding.text.joined, sensing_asked=ctx.focus.last_intent == "inventory")
    if subset == "telemetry":
        return list(telemetry_assets(ctx.catalog))
    if subset == "no_telemetry":
        return [a for a in known_assets(ctx.catalog) if a not in telemetry_assets(ctx.catalog)]
    reads_telemetry = any(i in TELEMETRY_INTENTS or i in _ALERT_INTENTS for i in ctx.intents)
    if reads_telemetry or not (all(i in ctx.vocab.work_order_intents or i in NO_TELEMETRY_INTENTS
                                   for i in ctx.intents)):
        return list(telemetry_assets(ctx.catalog))
    return list(known_assets(ctx.catalog))


# "the worst one", "the top unit", "the most urgent of them": one asset, picked by a ranking.
# ("the rest of the summer", "the test of that": words that end in -est without being superlatives)
_NOT_SUPERLATIVE = r"(?!(?:rest|test|west|request|interest|contest|protest|harvest|quest|chest|guest|nest)\b)"
# ("the other one", "the latter unit", "the water one": words in -er that set nothing against anything)
_NOT_COMPARATIVE = r"(?!(?:other|another|either|neither|former|latter|under|over|after|water|power|order|chiller|" \
                   r"later|earlier|sooner|tower|header|meter|filter|motor|ever|never|number|center|centre)\b)"
_SUPERLATIVE_ONE = re.compile(r"\bthe (?:worst|best|top|biggest|highest|lowest|weakest|most \w+|least \w+|"
                              rf"{_NOT_SUPERLATIVE}\w+est|"
                              # of two: "why is the worse one worse?", "can we take the smaller one down?"
                              rf"worse|better|more \w+|less \w+|{_NOT_COMPARATIVE}\w{{2,}}(?:er|ier)) "
                              r"(?:one|unit|chiller|machine|of (?:them|those|these|the \w+))\b|"
                              # "the lowest kW one", "the highest kW/ton unit": the end of a reading named between
                              r"\bthe (?:highest|lowest|biggest|smallest|top|bottom) (?:[\w/%-]+ ){1,2}?(?:one|unit|chiller)\b")


# "the one with the most alerts", "the unit that had the highest kW/ton": one asset described by its place in an
# earlier ranking.
DESCRIBED_ONE = re.compile(r"\bthe (?:one|unit|chiller|machine) (?:with|that (?:had|has|logged|threw|showed|raised)|"
                           r"showing|having) (?:the )?(?:most|highest|biggest|largest|fewest|least|lowest|worst|best)"
                           r"\b(?: [\w/%]+){0,3}?(?=\s*[?,.;]|\s+-|\s+(?:what|how|which|why|when|is|was|did|does)\b|\s*$)")


def _described_by_a_reading(ctx: PlanContext, assets: list[str], described: str) -> str | None:
    """"The one with the worst kW/ton": the end of the reading it names, among the means the dialog read (kW/ton:
    worst is highest; any other reading: "highest"/"most" the top, "lowest"/"least" the bottom)."""
    named = find_sensors(Text.of(described), ctx.vocab).canonical
    if len(named) != 1:
        return None
    means = reading_means(ctx.artifacts, assets, named[0])
    if len(means) < 2:
        return None
    low = bool(re.search(r"\b(?:lowest|least|fewest|best)\b", described)) if named[0] == "Chiller Efficiency" \
        else bool(re.search(r"\b(?:lowest|least|fewest)\b", described))
    ordered = sorted(means, key=lambda a: (means[a] if low else -means[a], a))
    return ordered[0] if means[ordered[0]] != means[ordered[1]] else None


_END_WORDS = {"bad": "worse", "good": "better", "high": "bigger", "low": "smaller"}
# "the less efficient one", "the most efficient unit": a chiller described by its place on kW/ton
_BY_EFFICIENCY = re.compile(r"\bthe (less|least|more|most) efficient (?:one|unit|chiller|machine|of (?:them|the \w+))\b")


def _described_pick(ctx: PlanContext, assets: list[str]) -> str | None:
    """"The one with the most (fewest) alerts": read from the alert counts the dialog listed for `assets`."""
    efficient = _BY_EFFICIENCY.search(ctx.understanding.text.joined)
    if efficient is not None and len(assets) > 1:
        # "going back to the less efficient one": the end of the kW/ton the dialog read, whatever was picked since
        means = reading_means(ctx.artifacts, assets, "Chiller Efficiency")
        if len(means) > 1:
            worst = efficient.group(1) in ("less", "least")  # less efficient: more kW per ton
            ordered = sorted(means, key=lambda a: (-means[a] if worst else means[a], a))
            if means[ordered[0]] != means[ordered[1]]:
                return ordered[0]
    described = DESCRIBED_ONE.search(ctx.understanding.text.joined)
    if described is None or len(assets) < 2:
        return None
    if not re.search(r"\b(?:alerts?|alarms?)\b", described.group(0)):
        return _described_by_a_reading(ctx, assets, described.group(0))
    totals = alert_totals(ctx.artifacts, assets)
    if len(totals) < 2:
        return None
    fewest = bool(re.search(r"\b(?:fewest|least|lowest)\b", described.group(0)))
    ordered = sorted(totals, key=lambda a: (totals[a] if fewest else -totals[a], a))
    return ordered[0] if totals[ordered[0]] != totals[ordered[1]] else None


def superlative_one(text: str) -> bool:
    """"the worst one", "the top unit", "the one with the most alerts": one asset picked by an earlier ranking, in
    the normalised `text`."""
    return bool(_SUPERLATIVE_ONE.search(text) or DESCRIBED_ONE.search(text))


def _superlative_one(ctx: PlanContext) -> bool:
    return superlative_one(ctx.understanding.text.joined)


# "that one", "this chiller": one asset, even where "they" in the same message is the records ("what were they
# for on that one?")
_THAT_ONE = re.compile(r"\b(?:that|this|the same) (?:one|chiller|unit|machine)\b")


# "the most of them", "more of those": a count of what the last answer listed for the chillers discussed
_OF_WHAT_WAS_LISTED = re.compile(r"\b(?:most|more|fewest|fewer|least|less) of (?:them|those|these)\b")
_SITE_WORDS = re.compile(r"\b(?:site|plant|fleet|across|all (?:the |our )?(?:chillers|units)|whole|every|any of our)\b")


def _singular_reference(ctx: PlanContext) -> bool:
    references = ctx.understanding.references
    text = ctx.understanding.text.joined
    explicit_one = bool(_THAT_ONE.search(text)) and not _pair_reference(ctx) and "all of them" not in text
    singular = ("asset" in references or ctx.understanding.assets.bare_asset_word or _superlative_one(ctx)) and \
        ("plural_asset" not in references or explicit_one)
    return singular and not (ctx.request is not None and ctx.request.fleet and not _superlative_one(ctx))


# Questions about one finding ("when did that start?", "why?", "was it fixed?"): after a whole-site
# ranking, unless the message speaks of several, they are about the chiller that stood out.
_DEEP_DIVE_INTENTS = frozenset({"onset", "resolution", "diagnose", "failure_modes", "fix_procedure", "recommend_wo",
                                "draft_wo", "plan_fix", "validation", "restart", "sensor_validity", "monitor",
                                "lifecycle"})


def _deep_dive_after_ranking(ctx: PlanContext) -> bool:
    references = ctx.understanding.references
    reading = ctx.request
    return (ctx.focus.scope == "fleet" and ctx.primary in _DEEP_DIVE_INTENTS and "plural_asset" not in references
            and not (reading is not None and (reading.fleet or reading.others)))


_PAIR_WORDS = ("both", "the two", "those two", "these two", "the pair", "both of them", "the two of them", "each of them", "either of them",
               "either one", "neither of them", "either chiller", "either unit", "one or the other")


# "those three chillers", "all four units", "the 3 of them": a count of the chillers the dialog discussed
_COUNTED_BACK = re.compile(r"\b(?:those|these|the|all|all of the|each of the) (two|three|four|five|2|3|4|5) "
                           r"(?:chillers|units|machines|assets|of them|ones)\b|"
                           r"\ball (two|three|four|five)\b(?! (?:years|months|quarters|weeks|days|periods|summers|winters))|"
                           # "so which of the three breaks down the most?": of the three discussed, a pick (not
                           # "which of the three alerts", a pick among records or periods)
                           r"\bwhich of (?:those|these|the) (two|three|four|five|2|3|4|5)\b(?! (?:years|months|quarters|"
                           r"weeks|days|periods|summers|winters|alerts|alarms|rules|work|wos|orders|jobs|codes|modes|"
                           r"failure|sensors|readings|causes|options|faults|failures|candidates|tickets|visits|events)\b)")


def _pair_reference(ctx: PlanContext) -> bool:
    """"both", "the two": two assets, where the focus holds only the last one discussed; "the same efficiency
    comparison for August 2019" repeats a comparison of two without naming them."""
    text = ctx.understanding.text
    return any(text.contains(word) for word in _PAIR_WORDS) or (
        asks_repeat(text.joined) and "comparison" in text.tokens and not ctx.understanding.assets.assets)


def _names(assets: list[str]) -> str:
    return ", ".join(assets[:-1]) + f" and {assets[-1]}" if len(assets) > 1 else "".join(assets)


def _fleet_scope(ctx: PlanContext) -> list[str]:
    assets = fleet_assets(ctx)
    ctx.scope = "fleet"
    monitored = set(telemetry_assets(ctx.catalog))
    kind = "monitored " if set(assets) == monitored else "" if monitored & set(assets) else "unmonitored "
    ctx.note(f"No chiller named: looking at all {len(assets)} {kind}chillers ({_names(assets)}).")
    return assets


# "How's it looking today?", "how is it doing?" opening a chat: "it" is the situation, the site's, not a chiller
# talked about ("the one we discussed", "do that again for it" point back, and with nothing before, ask).
_SITE_STATUS = re.compile(r"^(?:so |ok |hey |hi |morning |and )*how(?:'s|s| is| are)? (?:it|things|everything) "
                          r"(?:looking|doing|going|running|holding up)\b")


def _site_status(ctx: PlanContext) -> bool:
    return bool(_SITE_STATUS.search(ctx.understanding.text.joined)) and not _THAT_ONE.search(ctx.understanding.text.joined)


# "taking everything into account", "all things considered": every chiller the dialog discussed, not the last few.
_EVERYTHING_CONSIDERED = re.compile(r"\b(?:taking|take|taken|with|given) (?:everything|it all|all of (?:it|that|this)) "
                                    r"(?:into account|in mind|considered)\b|\ball things considered\b|"
                                    r"\beverything considered\b")


# "the next two on the list", "and the next three?": the ones ranked after the one picked (not "the next two weeks")
NEXT_ON_THE_LIST = re.compile(r"\bthe next (two|three|four|2|3|4)\b(?! (?:days?|weeks?|months?|years?|hours?|quarters?)\b)")
_OTHER_COUNT = re.compile(r"\b(?:the )?other (two|three|four|2|3|4)\b")
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}


def scope_assets(ctx: PlanContext) -> list[str]:
    """The assets of a turn that names none (empty: the turn needs no asset, or must ask which)."""
    focus_assets = list(ctx.focus.asset_ids)
    reading = ctx.request
    following = NEXT_ON_THE_LIST.search(ctx.understanding.text.joined)
    if following is not None and len(ctx.focus.ranked) > 1:
        # "and the next two on the list?" after the top of a ranking: the ones ranked right after the one picked
        ranked = ctx.focus.ranked
        start = ranked.index(ctx.focus.picked) + 1 if ctx.focus.picked in ranked else 1
        chosen = ranked[start:start + _COUNTS[following.group(1)]]
        if chosen:
            ctx.scope = "assets" if len(chosen) > 1 else "asset"
            ctx.note(f"'The next {following.group(1)}' read as {_names(chosen)}, ranked after {ranked[start - 1]}.")
            return chosen
    if reading is not None and reading.others and focus_assets:
        rest = [a for a in fleet_assets(ctx) if a not in focus_assets]
        counted = _OTHER_COUNT.search(ctx.understanding.text.joined)
        # (the one picked before is no "other" either: "the other two" after the top and then the runner-up)
        named = [a for a in (ctx.focus.ranked or ctx.focus.discussed) if a not in focus_assets and a != ctx.focus.picked]
        if telemetry_subset(ctx.understanding.text.joined) is not None:  # "the other two with sensor data"
            named = [a for a in named if a in fleet_assets(ctx)]
        if counted is not None and len(named) >= _COUNTS[counted.group(1)]:
            # "the other two" after the worst of three was picked: the two ranked beside it, not the rest of the site
            # (in the site's order, as "the others" always are)
            kept = set(named[:_COUNTS[counted.group(1)]])
            rest = [a for a in fleet_assets(ctx) if a in kept]
        elif counted is not None and len([a for a in rest if a != ctx.focus.picked]) == _COUNTS[counted.group(1)]:
            rest = [a for a in rest if a != ctx.focus.picked]  # as many as said once the pick is left out
        if rest:
            ctx.scope = "assets" if len(rest) > 1 else "asset"
            ctx.note(f"'The others' read as {_names(rest)}.")
            return rest
    if ctx.primary in ctx.vocab.assetless_intents and not (reading is not None and reading.fleet):
        return focus_assets
    if _EVERYTHING_CONSIDERED.search(ctx.understanding.text.joined) and len(ctx.focus.discussed) > len(focus_assets):
        everything = list(dict.fromkeys([*focus_assets, *ctx.focus.discussed]))
        ctx.scope = "assets"
        ctx.note(f"'Taking everything into account' read as every chiller discussed: {_names(everything)}.")
        return everything
    counted = _COUNTED_BACK.search(ctx.understanding.text.joined)
    if counted is not None and not ctx.understanding.assets.assets:
        wanted = _COUNTS[next(g for g in counted.groups() if g)]
        discussed = list(dict.fromkeys([*focus_assets, *ctx.focus.discussed]))
        if len(focus_assets) < wanted <= len(discussed):
            # "which of those three chillers needed the most?": the three discussed last, not the last one alone
            ctx.scope = "assets"
            ctx.note(f"'Those {counted.group(0).split()[-1]}' read as {_names(discussed[:wanted])}, discussed last.")
            return discussed[:wanted]
    if len(focus_assets) == 1 and _pair_reference(ctx) and len(ctx.focus.discussed) > 1:
        pair = list(dict.fromkeys([*focus_assets, *ctx.focus.discussed]))[:2]
        ctx.note(f"'Both' read as {_names(pair)}, the two discussed last.")
        return pair
    if not focus_assets:
        # ("whose should it be?" with nothing discussed: a pick, and the candidates are the site's)
        if "asset" in ctx.understanding.references and not (reading is not None and (reading.fleet
                                                                                    or reading.shape == "which")) \
                and not _site_status(ctx):
            return []  # "the one we talked about", "do that again for it" with nothing before: only the user knows
        if "asset" in ctx.understanding.references:
            ctx.note("No chiller has been discussed yet, so the question is read across the site.")
        return _fleet_scope(ctx)  # "how's it looking today?" opening a chat: the site; "find it": one of the site's  # "it" in "one of our chillers is off, find it" is one of the site's
    if reading is not None and reading.fleet and reading.shape == "which" and len(focus_assets) > 1 \
            and _OF_WHAT_WAS_LISTED.search(ctx.understanding.text.joined) and not _SITE_WORDS.search(
                ctx.understanding.text.joined):
        # "which unit had the most of them?" after the orders of three units: a pick among those three
        ctx.scope = "assets"
        ctx.note(f"Picked among the chillers just listed: {_names(focus_assets)}.")
        return focus_assets
    if reading is not None and reading.fleet and not _singular_reference(ctx):
        return _fleet_scope(ctx)
    if ctx.primary == "prioritize" and len(focus_assets) == 1 and len(ctx.focus.discussed) > 1 \
            and not ctx.understanding.references & {"asset", "plural_asset", "first_asset", "second_asset"} and (reading is None or not reading.fleet):
        # "give me a plan for this week, most urgent first" after a look at each of two: both, ranked (one
        # chiller is no ranking)
        discussed = list(dict.fromkeys([*focus_assets, *ctx.focus.discussed]))
        ctx.scope = "assets"
        ctx.note(f"Ranked over the chillers discussed: {_names(discussed)}.")
        return discussed
    if reading is not None and reading.shape == "which" and len(focus_assets) == 1 and len(ctx.focus.discussed) > 1 \
            and ctx.primary in ("alerts", "work_orders") and ctx.focus.last_intent == ctx.primary \
            and not ctx.understanding.references & {"asset", "plural_asset"}:
        # "which one is cycling worse?" after the cycling alerts on 9, then on 6: the pick is between the two counted
        pair = list(dict.fromkeys([*focus_assets, *ctx.focus.discussed]))[:2]
        ctx.scope = "assets"
        ctx.note(f"'Which one' read as a pick between {_names(pair)}, the two counted last.")
        return pair
    if reading is not None and reading.shape == "which" and len(focus_assets) == 1 and ctx.primary == "prioritize" \
            and not ctx.understanding.references:
        # "which one has the highest kW/ton right now?" after a look at one chiller: one chiller is no choice,
        # the candidates are the site's
        ctx.note(f"'Which one' read across the site, not only {focus_assets[0]}.")
        return _fleet_scope(ctx)
    described = _described_pick(ctx, focus_assets)
    if described is not None:
        ctx.note(f"Taking it to mean {described}, the one the question describes.")
        return [described]
    picked = ctx.focus.picked
    asked_end = pick_end(ctx.understanding.text.joined) if _superlative_one(ctx) else None
    # (ends of one kind only: "the worst one" after "which had the most work orders?" is that one, not the other end)
    same_kind = {asked_end, ctx.focus.picked_for} <= {"good", "bad"} or {asked_end, ctx.focus.picked_for} <= {"high", "low"}
    if picked and asked_end and ctx.focus.picked_for and asked_end != ctx.focus.picked_for and same_kind \
            and len(ctx.focus.ranked) > 1 and picked in ctx.focus.ranked:
        other = ctx.focus.ranked[-1] if ctx.focus.ranked[0] == picked else ctx.focus.ranked[0]
        ctx.note(f"Taking the {_END_WORDS[asked_end]} one to mean {other}, the other end from {picked}.")
        return [other]
    if picked and picked not in focus_assets and _superlative_one(ctx):
        focus_assets = [picked, *focus_assets]  # "the worst one" is the one an earlier answer picked as worst
    elif picked and len(focus_assets) > 1 and _superlative_one(ctx) \
            and not (ctx.request is not None and ctx.request.shape == "which"):
        # "the worse of the two - how many WOs did it get?": the one the last answer picked, not both again
        # ("which was the more efficient of the two?" asks a new pick between them)
        ctx.note(f"Taking it to mean {picked}, the one picked.")
        return [picked]
    if len(focus_assets) > 1 and (_singular_reference(ctx) or _deep_dive_after_ranking(ctx)):
        ranked = ranked_assets(ctx.artifacts, focus_assets)
        if picked in focus_assets:  # the one the last answer picked, whatever ranked it
            ranked = [picked, *(a for a in ranked if a != picked)]
        if ranked:
            ctx.note(f"Taking it to mean {ranked[0]}, the one that stood out.")
            return [ranked[0]]
        ctx.note(f"Not sure which one you mean, so covering all of them: {_names(focus_assets)}.")
    ctx.scope = ctx.focus.scope if len(focus_assets) > 1 else "asset"
    return focus_assets
