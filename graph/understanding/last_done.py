""""When was it last cleaned?": the job a question asks the last date of.

The grammar is "when ... last" (or "the last time", "how long since") around a job word; the job words are
the vocabulary's `named_jobs` (topic words), matched on their stems so "cleaned", "cleaning" and "clean"
are one job. Pure: text in, the job's stems out.
"""

from __future__ import annotations

import re

from graph.understanding.text import Text, stem
from graph.understanding.vocabulary import Vocabulary

_LAST = re.compile(r"\bwhen\b.*\blast\b|\blast time\b|\bhow long (?:since|ago)\b|\bmost recent\b.*\bwhen\b|"
                   # "what did the last inspection find?", "is it due for its annual service?"
                   # ("its history for the last three years" is a span, not the last job)
                   r"\b(?:the|its|their) (?:last|latest|most recent|previous)\b(?! (?:\d+|two|three|four|five|six|"
                   r"seven|eight|nine|ten|twelve|few|couple|several|year|month|week|day|quarter|decade)\b)|"
                   r"\b(?:due|overdue) for\b|"
                   # "what was chiller 7's most recent corrective job?" (the possessive is dropped with its 's)
                   r"\b(?:chiller|unit|ch) ?\d+ (?:last|latest|most recent|previous)\b(?! (?:year|month|week|quarter|"
                   r"summer|winter|spring|fall|autumn|night|season|few|couple|\d|two|three))|"
                   # "did we already do a leak check on it this summer?", "has it had its oil analysis?"
                   # (a yes/no opening the question: "how many ... did it get in 2020?" counts, it asks no date)
                   r"(?:^|[?!.] |\b(?:so|and|ok|okay|but|also) )(?:did|have|has|had|didn't|didnt|hasn't|hasnt|"
                   r"haven't|havent) (?:we|you|they|it|anyone|someone|somebody|anybody|either|either of them|chiller \d+|#?\d+) "
                   r"(?:already |ever |actually |even )?"
                   r"(?:do|done|get|got|had|have|book|booked|schedule|scheduled|been|run|ran|log|logged|raise|raised|"
                   r"record|recorded|carry out|carried out|perform|performed|complete|completed)\b"
                   # ("did it raise any alerts in july, while the tubes were fouled?" asks for alerts, no job)
                   r"(?! (?:any |an? |the |many )?(?:[\w-]+ )?(?:alerts?|alarms?|warnings?)\b)|"
                   # "did anyone recalibrate it?", "has someone cleaned the tubes?": the job as the verb itself
                   r"\b(?:did|has|have|had) (?:anyone|someone|somebody|anybody|maintenance|the crew|the techs?|ops) "
                   r"(?:already |ever |actually |even )?[a-z]{4,}\b|"
                   # "when was it recalibrated?", "when were the tubes cleaned?": the date of the job, in the passive
                   r"\bwhen (?:was|were) (?:it|they|that|this|its [\w-]+(?: [\w-]+)?|the [\w-]+(?: [\w-]+)?|#?\d+|"
                   r"chiller \d+) (?:last |finally |actually |ever )?[a-z]{4,}\b(?! (?:for|by|on|in|at)\b)|"
                   # "when did they finally clean the tubes?", "when did maintenance flush it?": the date of the job done
                   r"\bwhen (?:did|have|has) (?:we|they|anyone|someone|somebody|maintenance|the crew|the techs?|ops) "
                   r"(?:finally |eventually |actually |ever )?[a-z]{4,}\b|"
                   # "has any leak detection work been done on it this year?": the job as the subject of a passive
                   r"\b(?:has|have|had|was|were) (?:any |the |a |an |its |their )?(?:[\w/-]+ ){0,5}?been (?:done|"
                   r"carried out|performed|completed|logged|booked|scheduled|raised)\b|"
                   # "has 6 had its condenser tubes cleaned yet?": the chiller had the job done to it
                   r"\b(?:has|have|had|did) (?:it|they|\d+|#\d+|chiller \d+) (?:had|got|gotten|have|get) (?:its|their|"
                   r"the|a|an|any) (?:[\w-]+ ){0,3}?[a-z]+ed\b|"
                   # "4 had a refrigerant top-up last fall, right?": a job the chiller had, put up for confirming
                   r"(?:^|[?!.] |\b(?:so|and|ok|okay|but|also) )(?:it|they|chiller \d+|#?\d+) (?:had|got) (?:a|an|its|"
                   r"their|the|some) .{2,60}?\b(?:right|correct|yeah|didn't it|didnt it|didn't they|didnt they) ?\?")
# "was there a calibration work order on it around then?", "any calib or sensor WOs this yr?", "any calibration work
# since then?": orders asked for by
# their job (a named one: "any corrective WOs?" counts the repairs)
_ORDERS_OF_A_JOB = re.compile(r"\b(?:(?:was|were|is|are) there (?:a|an|any)|any) (?:[\w/-]+ ){1,4}?(?:work orders?|"
                              r"wos?|jobs?|tickets?|visits?|work)\b")
# "the tubes got cleaned on it this month, right?", "were the strainers cleaned in june?": the job as a passive
# participle (the participle must name the job: "how many orders were closed?" counts orders)
_PASSIVE_JOB = re.compile(r"\b(?:was|were|got|gotten|get|been)\s+(?:it |they |the |its |their )?(?:[\w-]+ ){0,3}?"
                          r"([a-z]{3,}ed)\b")
_COUNTED = re.compile(r"\bhow (?:many|often)\b|\bnumber of\b|\bcount\b")


def last_done_job(text: Text, vocab: Vocabulary) -> frozenset[str]:
    """The stems of the job whose last date the message asks for ("when was it last cleaned?" -> {"clean"}),
    empty when it asks for none."""
    if _LAST.search(text.joined):
        return job_stems(text, vocab)
    if _ORDERS_OF_A_JOB.search(text.joined):
        named = job_stems(text, vocab) - REPAIR_STEMS - SERVICE_STEMS
        if named:
            return named
    passive = _PASSIVE_JOB.search(text.joined)
    if passive is None or _COUNTED.search(text.joined):
        return frozenset()
    found = job_stems(text, vocab)
    return found if _job_word(stem(passive.group(1)), set(found)) is not None else frozenset()


def job_stems(text: Text, vocab: Vocabulary) -> frozenset[str]:
    """The stems of the maintenance job the message names ("it was shut down for a tube clean" -> {"tube",
    "clean"}), empty when it names none."""
    jobs = {stem(word) for phrase in vocab.named_jobs for word in phrase.split() if len(word) > 2} | REPAIR_STEMS \
        | SERVICE_STEMS
    # ("recalibrate", "re-clean": the job done again is the job)
    again = {s: s[2:] for s in text.stems if s.startswith("re") and s[2:] in jobs}
    found = frozenset(job for job in (_job_word(again.get(s, s), jobs) for s in text.stems) if job)
    if _TOP_UP.search(text.joined):  # "has either been topped up yet?": the refrigerant top-up ("top" alone is none)
        found |= {TOP_UP}
    # "a leak detection PM": the job is the leak detection; "PM" only says it was planned ("annual service" is a job)
    planned = frozenset({stem("preventive"), stem("maintenance")})
    return found - planned if found - SERVICE_STEMS - REPAIR_STEMS else found


# A job said with a particle ("topped up", "a top-up"): only the whole phrase names it.
_TOP_UP = re.compile(r"\btop(?:ped|ping|s)?\s*-?\s*ups?\b")
TOP_UP = "top"
_SAME_WORD_PREFIX = 6  # "analysed" and "analysis" stem apart ("analys", "analysi"): one word to a job
_SHORTENED, _CUT_OFF = 5, 3  # "calib": a job word cut short by a few letters is the job ("over" is no "overhaul")


def _job_word(word: str, jobs: set[str]) -> str | None:
    """The job stem `word` is: itself, else the shortest job stem it shares its first letters with."""
    if word in jobs:
        return word
    alike = [job for job in jobs if (min(len(word), len(job)) >= _SAME_WORD_PREFIX
                                     and word[:_SAME_WORD_PREFIX] == job[:_SAME_WORD_PREFIX])
             # ("calib", "insp": a job word cut short is that job)
             or (len(word) >= _SHORTENED and job.startswith(word) and len(job) - len(word) <= _CUT_OFF)]
    return min(alike, key=lambda job: (len(job), job)) if alike else None


# "when was the last time it had a corrective WO?", "when was it last repaired?": any corrective order is the job
REPAIR_STEMS = frozenset({stem("corrective"), stem("repair"), stem("breakdown")})
# "when did it last have a preventive WO?", "when was it last serviced?": any planned maintenance order is the job
SERVICE_STEMS = frozenset({stem("preventive"), stem("serviced"), stem("maintain"), stem("maintenance")})


_PREFIX = 5  # "inspected" and "inspection" share "inspe": one job


def names_job(description: str, job: frozenset[str]) -> bool:
    """True when every stem of `job` begins a word of the work order's `description` (or the reverse)."""
    words = [stem(w) for w in re.findall(r"[a-z]+", description.lower())]
    return bool(job) and all(any(w[:_PREFIX] == s[:_PREFIX] for w in words) for s in job)
