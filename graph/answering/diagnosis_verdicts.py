"""Yes/no from diagnoses: "is it condenser fouling?", "is that the same thing Chiller 9 had?", "is it safe
to keep running?".

Pure functions over `diagnose` (ranked hypotheses with confidence ranges) and `anomaly_detection`
artifacts. A named failure mode is judged against the top hypothesis; two diagnoses are the same when
their most likely causes are; a health question ("safe", "okay", "running normally") is answered yes
only when neither the anomaly shares nor a likely fault say otherwise: "safe" is a health word, so a
finding means "No".
"""

from __future__ import annotations

import re

from artifacts.model import Artifact
from artifacts.readings import Hypothesis, anomaly_rate, hypotheses, sustained_shifts, trip_time, tripped
from graph.answering.asked_figures import asked_sensors
from graph.answering.compare_terms import mention_position, window_phrase
from graph.answering.markdown import chillers, join_names
from graph.answering.yes_no import Answer, Verdict, flip
from graph.understanding.identifiers import find_failure_modes
from graph.understanding.request import asks_real_or_noise, asks_when_tripped
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from specialists.maintenance.evidence import is_instrument_fault, is_no_fault
from specialists.maintenance.prioritize import FALSE_ALARM_RATE

NO_FAULT = "no fault"
CLEAR_ANOMALY_RATE = 2 * FALSE_ALARM_RATE  # above twice the false-alarm rate the flags are a finding
LIKELY = 0.5  # a fault at this probability or more is a finding on its own
_WORDS = re.compile(r"[a-z]+")
# A question about health ("is it running normally?", "is it safe to keep running?") is answered yes when
# nothing is wrong. An opening "OK," / "alright" is a reply to the last answer, not part of the question.
_HEALTHY = re.compile(r"\b(normal(ly)?|fine|ok(ay)?|healthy|good|safe(ly)?|within (spec|limits)|as expected|"
                      # "can I trust that sensor?": its yes means the sensor reads true (asked, not "I don't trust it")
                      r"all right|alright|(can|could|should) (i|we|you) (trust|rely on|believe)|"
                      r"(is|are) (it|that|this|they|those|the \w+)( \w+)? (trustworthy|reliable|accurate)|"
                      r"(reading|reads) (right|true|correctly)|"
                      # "was it totally quiet?": its yes means nothing fired
                      r"quiet|calm|uneventful)\b",
                      re.I)
_INTERJECTION = re.compile(r"^\W*(ok(ay)?|alright|all right|right|so|well|fine|good)\b[\s,.!:;-]*", re.I)
# "Did it trip?", "did any chiller shut down?": only a diagnosis looks for the stop itself.
# "The trip" / "that trip" names the event (the question is about its cause), not whether it happened.
TRIP_WORDS = re.compile(r"(?<!the )(?<!that )(?<!this )(?<!a )\b(trip(s|ped)?|shut (itself )?down|stopp?ed|quit|"
                        r"cut out|went off)\b", re.I)
# "before it tripped", "since it quit", "until the chiller cut out": the trip as the time of something else
_TRIP_AS_A_TIME = re.compile(r"\b(?:before|after|since|until|till|when|once|prior to|ahead of|leading up to)\s+"
                             r"(?:it|they|the (?:chiller|unit|machine)|(?:chiller|ch|#) ?\d+)\s+"
                             r"(?:trip(?:s|ped)?|shut (?:itself )?down|stopp?ed|quit|cut out|went off)\b", re.I)
_SAME = re.compile(r"\b(same|similar\w*|identical|like (the one|what|on|in|last))\b", re.I)


# "outside its normal envelope", "not normal", "beyond the usual range": the state asked is the abnormal one.
_NEGATED_HEALTHY = re.compile(r"\b(?:outside|out of|beyond|not|isn't|aren't|wasn't|away from|off)\s+(?:(?:its|their|the|"
                              r"a|his|her|our)\s+)?(?:normal|usual|expected|healthy|fine|ok(?:ay)?)\b", re.I)


def _named_reading_rates(art: Artifact, sensor: str) -> list[float]:
    """The flagged shares the anomaly run found for the reading `sensor` (bare name) on its chiller."""
    per_sensor = art.results.get("per_sensor")
    entries = per_sensor.values() if isinstance(per_sensor, dict) else []
    return [float(e["rate"]) for e in entries if isinstance(e, dict) and isinstance(e.get("rate"), int | float)
            and str(e.get("sensor") or "").endswith(sensor)]


def _reading_health(question: str, runs: list[Artifact]) -> Verdict | None:
    """Is one named reading normal: its own flagged share and any sustained shift of it (None when the question
    names no reading, or the runs did not analyse it)."""
    named = asked_sensors(question)
    if len(named) != 1 or not runs:
        return None
    sensor, said, lines, problems, highest = named[0], [], [], [], 0.0
    for art in runs:
        found = _named_reading_rates(art, sensor)
        if not found:
            continue
        asset, rate = ", ".join(art.asset_ids), max(found)
        highest = max(highest, rate)
        shifted = [m for m in sustained_shifts(art) if sensor.lower() in m.lower()]
        lines.append(f"- {asset} {sensor.lower()}: {rate:.1%} of running samples flagged [{art.id}]")
        lines += [f"- {m}" for m in shifted[:1]]
        if rate > CLEAR_ANOMALY_RATE or shifted:
            problems.append(f"{asset}'s {sensor.lower()} is off its usual behaviour ({rate:.1%} of running samples "
                            f"flagged{', with a sustained shift' if shifted else ''})")
        else:
            said.append(asset)
    if not lines:
        return None
    if problems:
        return Verdict("No", f"No, {'; '.join(problems)}.", lines)
    return Verdict("Yes", f"Yes, {chillers(said)}'s {sensor.lower()} looks normal: at most {highest:.1%} of running "
                          "samples flagged, within what the detector flags on healthy data.", lines)


def asks_health(question: str) -> bool:
    """Whether the question asks if all is well (its yes means "nothing wrong"); "is any chiller running outside
    its normal envelope?" asks the opposite."""
    text = _NEGATED_HEALTHY.sub(" ", _INTERJECTION.sub("", question))
    return bool(_HEALTHY.search(text))


def _mode_words(text: str) -> set[str]:
    return {w for w in _WORDS.findall(text.lower()) if len(w) > 3 and w not in {"side", "water", "chiller"}}


def named_mode(question: str, ranked: list[Hypothesis]) -> Hypothesis | None:
    """The hypothesis the question names ("is it condenser fouling?"): the likeliest of the modes the vocabulary
    reads in it ("is it fouled?" names both fouling modes), else the one sharing most words. None when the
    question names modes the ranking lacks: "is the condenser fouling?" is not asked of evaporator fouling."""
    named = set(find_failure_modes(Text.of(question), vocabulary()))
    read = next((h for h in ranked if h.failure_mode in named), None)
    if read is not None:
        return read
    asked = _mode_words(question)
    scored = [(len(asked & _mode_words(h.failure_mode)), i, h) for i, h in enumerate(ranked)]
    best: tuple[int, int, Hypothesis | None] = max(scored, key=lambda s: (s[0], -s[1]), default=(0, 0, None))
    # one shared word ("fouling") is enough only when the vocabulary read no other mode in the question
    return best[2] if best[0] >= (2 if named else 1) else None


def asks_of_a_mode(question: str, ranked: list[Hypothesis]) -> bool:
    """The question names a failure mode, ranked or not ("is the condenser fouling?" when only evaporator
    fouling was ranked is still a question about condenser fouling)."""
    return named_mode(question, ranked) is not None or bool(find_failure_modes(Text.of(question), vocabulary()))


def _is_fault(hypothesis: Hypothesis) -> bool:
    return not hypothesis.failure_mode.lower().startswith(NO_FAULT)


def failure_mode_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is it <failure mode>? (or: is there a fault?) The named mode against the top hypothesis."""
    found = [(a, h) for a in artifacts if a.kind == "diagnose" and (h := hypotheses(a))]
    if not found:
        return None
    art, ranked = found[-1]
    top = ranked[0]
    low, high = top.bounds
    top_mode = top.failure_mode
    asset = ", ".join(art.asset_ids)
    evidence = [f"- {h.failure_mode}: {h.bounds[0]:.2f}-{h.bounds[1]:.2f}" for h in ranked[:3]]
    evidence.append(f"Source: diagnosis of {asset} [{art.id}]")
    asked = named_mode(question, ranked)
    named = find_failure_modes(Text.of(question), vocabulary())
    if asked is None and named and _is_fault(top):  # "is it a refrigerant leak?" when the evidence points elsewhere
        return Verdict("No", f"No, {join_names(named[:2])} is not among the likely causes on {asset}; the most "
                             f"likely is {top_mode} ({low:.2f}-{high:.2f}).", evidence)
    if asked is None:  # "is there a fault?", "is it serious?"
        if not _is_fault(top):
            answer: Answer = "No"
            body = f"no fault stands out on {asset} ({top_mode} {low:.2f}-{high:.2f})"
        else:
            answer = "Yes"
            body = f"the most likely cause on {asset} is {top_mode} ({low:.2f}-{high:.2f})"
        answer = flip(answer) if asks_health(question) else answer  # "is it running fine?"
        return Verdict(answer, f"{answer}, {body}.", evidence)
    mode = asked.failure_mode
    a_low, a_high = asked.bounds
    if asked is top:
        second = ranked[1] if len(ranked) > 1 else None
        clear = second is None or second.bounds[1] < low
        answer = "Yes" if clear else "Not clearly"
        rival = f"; {second.failure_mode} is close ({second.bounds[0]:.2f}-{second.bounds[1]:.2f})" \
            if second is not None and not clear else ""
        punct = "," if answer == "Yes" else ":"
        return Verdict(answer, f"{answer}{punct} {mode} is the most likely cause on {asset} "
                               f"({low:.2f}-{high:.2f}){rival}.", evidence)
    if a_high < low:
        return Verdict("No", f"No, {mode} is less likely ({a_low:.2f}-{a_high:.2f}); the most likely cause on "
                             f"{asset} is {top_mode} ({low:.2f}-{high:.2f}).", evidence)
    return Verdict("Not clearly", f"Not clearly: {mode} ({a_low:.2f}-{a_high:.2f}) is close behind the most "
                                  f"likely cause, {top_mode} ({low:.2f}-{high:.2f}).", evidence)


# "is that one fault or two at once?", "could it be several problems?": how many faults the diagnosis supports.
_HOW_MANY_FAULTS = re.compile(r"\bone (?:fault|problem|issue|cause|thing)\b.*\b(?:two|several|multiple|more|both)\b|"
                              r"\b(?:two|several|multiple) (?:faults|problems|issues|causes|things)\b", re.I)
_ALSO_LIKELY = 0.25  # a second mode this likely is a second fault, not a runner-up


def fault_count_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """One fault or two: the faults of the latest diagnosis at least `_ALSO_LIKELY` likely (no fault left out)."""
    if not _HOW_MANY_FAULTS.search(question):
        return None
    found = [(a, h) for a in artifacts if a.kind == "diagnose" and (h := hypotheses(a))]
    if not found:
        return None
    # of several chillers' diagnoses, the one with the likeliest fault is the one the question is about
    art, ranked = max(found, key=lambda pair: max((h.probability for h in pair[1] if _is_fault(h)), default=0.0))
    asset = ", ".join(art.asset_ids)
    likely = [h for h in ranked if _is_fault(h) and h.probability >= _ALSO_LIKELY]
    evidence = [f"- {h.failure_mode}: {h.probability:.2f}" for h in ranked[:3]]
    if len(likely) > 1:
        said = join_names([f"{h.failure_mode} ({h.probability:.2f})" for h in likely[:3]])
        return Verdict("Yes", f"Two at once, most likely: on {asset} both {said} stand out.", evidence)
    if likely:
        second = next((h for h in ranked if h is not likely[0]), None)
        rest = f"; the next, {second.failure_mode}, is far behind ({second.probability:.2f})" if second else ""
        return Verdict("No", f"One fault, most likely: {likely[0].failure_mode} on {asset} "
                             f"({likely[0].probability:.2f}){rest}.", evidence)
    return Verdict("No", f"Neither: no fault stands out on {asset}.", evidence)


def _case(art: Artifact) -> str:
    return f"{', '.join(art.asset_ids)} {window_phrase(art)}".strip()


def _most_likely(art: Artifact) -> str:
    top = hypotheses(art)[0]
    found = "found no fault" if not _is_fault(top) else f"points to {top.failure_mode}"
    return f"{_case(art)} {found} ({top.probability:.2f})"


def same_cause_verdict(question: str, turn: list[Artifact], session: list[Artifact]) -> Verdict | None:
    """Is it the same thing as <another case>? The most likely causes of two diagnoses (of two assets or two
    periods): the case the question names is the reference, the one under discussion the subject."""
    if not _SAME.search(question):
        return None
    mine = [a for a in turn if a.kind == "diagnose" and hypotheses(a)]
    cases = list({(tuple(a.asset_ids), a.window_start): a for a in [*session, *mine] if a.kind == "diagnose"
                  and hypotheses(a)}.values())
    if not mine or len(cases) < 2:
        return None
    subject = mine[0]
    others = [a for a in cases if (a.asset_ids, a.window_start) != (subject.asset_ids, subject.window_start)]
    named_others = [a for a in others if mention_position(question, a.asset_ids) is not None]
    reference = (named_others or others[::-1])[0]
    if mention_position(question, subject.asset_ids) is not None and not named_others:
        subject, reference = reference, subject  # the turn diagnosed the case the question names
    one, two = hypotheses(subject)[0], hypotheses(reference)[0]
    lines = [f"- {_case(a)}: " + "; ".join(f"{h.failure_mode} {h.probability:.2f}" for h in hypotheses(a)[:3])
             + f" [{a.id}]" for a in (subject, reference)]
    if one.failure_mode == two.failure_mode:
        return Verdict("Yes", f"Yes, the same: {one.failure_mode} is the most likely cause on both {_case(subject)} "
                              f"({one.probability:.2f}) and {_case(reference)} ({two.probability:.2f}).", lines)
    shared = [h for h in hypotheses(reference)[1:3] if h.failure_mode == one.failure_mode and h.probability >= 0.1]
    if shared and _is_fault(one):
        return Verdict("Partly", f"Partly: {one.failure_mode} leads on {_case(subject)} ({one.probability:.2f}) and "
                                 f"also shows on {_case(reference)} ({shared[0].probability:.2f}), where "
                                 f"{two.failure_mode} leads ({two.probability:.2f}).", lines)
    return Verdict("No", f"No, {_most_likely(subject)}; the diagnosis of {_most_likely(reference)}.", lines)


def health_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is it safe / okay / running normally? Yes when the anomaly shares are within what the detector flags
    on healthy data and no likely fault or trip was found; any such finding means no. Per asset the turn's
    answering diagnosis counts (the list comes answering ones first), not an earlier one it cites."""
    if not asks_health(question):
        return None
    rates = [(a, r) for a in artifacts if a.kind == "anomaly_detection" and (r := anomaly_rate(a)) is not None]
    reading = _reading_health(question, [a for a, _ in rates])
    if reading is not None:  # "is the condenser flow normal over that stretch?": that reading, not the whole chiller
        return reading
    diagnosed = _first_per_asset(artifacts)
    if not rates and not diagnosed:
        return None
    problems: dict[str, list[str]] = {}
    lines, weak = [], []
    for art, rate in rates:
        asset = ", ".join(art.asset_ids)
        lines.append(f"- {asset}: {rate:.1%} of running samples flagged [{art.id}]")
        if rate > CLEAR_ANOMALY_RATE:
            problems.setdefault(asset, []).append(f"shows abnormal behaviour ({rate:.1%} of running samples flagged, "
                                                  f"against about {FALSE_ALARM_RATE:.0%} on healthy data)")
        elif sustained_shifts(art):  # few samples flagged, but a reading moved off its relation and stayed there
            problems.setdefault(asset, []).append(f"shows a sustained shift ({rate:.1%} of running samples flagged)")
    for asset, (art, ranked) in diagnosed.items():
        top = ranked[0]
        lines.append(f"- {asset}: most likely {top.failure_mode} ({top.probability:.2f}) [{art.id}]")
        if tripped(art):
            problems.setdefault(asset, []).append("stopped on a safety trip")
        if _is_fault(top) and top.probability >= LIKELY:
            problems.setdefault(asset, []).append(f"most likely has {top.failure_mode} ({top.probability:.2f})")
        elif _is_fault(top):
            weak.append(f"{top.failure_mode} on {asset} ({top.probability:.2f})")
    if problems:
        said = [f"{asset} {join_names(found)}" for asset, found in problems.items()]
        return Verdict("No", f"No, {'; '.join(said)}.", lines)
    note = f"; the diagnosis only leans to {join_names(weak)}" if weak else ""
    if rates:
        highest_art, highest = max(rates, key=lambda p: p[1])
        where = ", ".join(highest_art.asset_ids)
        flagged = f"{highest:.1%} of running samples flagged" if len(rates) == 1 else \
            f"at most {highest:.1%} of running samples flagged ({where})"
        return Verdict("Yes", f"Yes, nothing abnormal stands out on {chillers([', '.join(a.asset_ids) for a, _ in rates])}"
                              f": {flagged}, within what the detector flags on healthy data{note}.", lines)
    if weak:
        return Verdict("Not clearly", f"Not clearly: the diagnosis only leans to {join_names(weak)}.", lines)
    healthy = "; ".join(f"{asset}: {ranked[0].failure_mode} ({ranked[0].probability:.2f})"
                        for asset, (_, ranked) in diagnosed.items())
    return Verdict("Yes", f"Yes, no fault stands out ({healthy}).", lines)


def _first_per_asset(artifacts: list[Artifact]) -> dict[str, tuple[Artifact, list[Hypothesis]]]:
    """Each asset's answering diagnosis (the list comes answering ones first) with its ranked hypotheses."""
    found: dict[str, tuple[Artifact, list[Hypothesis]]] = {}
    for art in artifacts:
        if art.kind == "diagnose" and (ranked := hypotheses(art)):
            found.setdefault(", ".join(art.asset_ids), (art, ranked))
    return found


def trip_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Did it trip? From the diagnoses, which find an abrupt stop on a safety: yes with when, or no."""
    if not TRIP_WORDS.search(_TRIP_AS_A_TIME.sub(" ", question)):
        return None  # ("was it running hot before it tripped?" dates the question by the trip, asks no trip)
    diagnosed = _first_per_asset(artifacts)
    if not diagnosed:
        return None
    stops = [(asset, when.replace("T", " ")[:16]) for asset, (art, _) in diagnosed.items() if (when := trip_time(art))]
    lines = [f"- {asset}: " + (f"stopped at {when.replace('T', ' ')[:16]}" if (when := trip_time(art)) else "no trip found")
             + f" [{art.id}]" for asset, (art, _) in diagnosed.items()]
    if stops:
        return Verdict("Yes", f"Yes, {join_names([f'{asset} stopped on a safety trip at {when}' for asset, when in stops])}.",
                       lines)
    return Verdict("No", f"No, the diagnosis of {chillers(list(diagnosed))} found no trip in the period looked at.", lines)




def last_trip_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """The answer to "when did it last trip?": each diagnosed chiller's latest stop on a safety, in site time, or
    that none was found in the period the diagnosis looked at."""
    if not asks_when_tripped(question):
        return None
    diagnosed = _first_per_asset(artifacts)
    if not diagnosed:
        return None
    said = []
    for asset, (art, _) in diagnosed.items():
        when = trip_time(art)
        if when:
            said.append(f"{asset} last tripped on {when[:10]} at {when[11:16]} site time")
        else:
            span = window_phrase(art)
            said.append(f"no trip of {asset} was found" + (f" {span}" if span else ""))
    sentence = "; ".join(said)
    return sentence[0].upper() + sentence[1:] + "."


def real_or_noise_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """The diagnosis as the choice asked: real (a fault of the machine is the likeliest cause), noise (an
    instrument fault is), or neither (no fault is likelier than any)."""
    if not asks_real_or_noise(question):
        return None
    for art in artifacts:
        ranked = hypotheses(art) if art.kind == "diagnose" else []
        if not ranked:
            continue
        top, asset = ranked[0], (art.asset_ids or ["the chiller"])[0]
        mode, share = top.failure_mode, f"{top.probability:.0%}"
        if is_no_fault(mode):
            return f"Noise, most likely: nothing points to a fault on {asset}; normal operation ranks first ({share})."
        seen = _first_evidence(art)
        if is_instrument_fault(mode):
            return (f"Most likely an instrument problem, not the machine: on {asset} the likeliest cause is "
                    f"{mode} ({share}), so the readings (and the alarms on them) are off, not the chiller{seen}.")
        return f"Real: on {asset} the likeliest cause is {mode} ({share}), a fault of the machine{seen}."
    return None


def _first_evidence(art: Artifact) -> str:
    """"; seen: Supply Temperature moved ..." from the top hypothesis's first supporting observation ('' if none)."""
    listed = art.results.get("hypotheses")
    top = listed[0] if isinstance(listed, list) and listed and isinstance(listed[0], dict) else {}
    found = top.get("evidence_for") or []
    return f"; seen: {str(found[0]).rstrip('.')}" if isinstance(found, list) and found else ""
