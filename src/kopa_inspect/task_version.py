"""KOPA-Bench's task version: what a score means (the tasks, the prompts, the scoring).

Its own module so that the scorers (which key cached gold truth by it) need not import the task
module that imports them.
"""

# Bump when the tasks, the prompts or the scoring change what a score means; logs of different
# versions are not comparable (Inspect records it as eval.task_version).
# 3: unanswerable tasks with evidence calls, longer gold plans (4.90 calls per task), per-step
#    accept values, stricter refusal/winner/comparative matching.
# 4: a call with an added filter/page/page size of its operation is judged by its records, not as
#    the gold call; a consumer asked with a remembered value does not retrieve its producer; refused
#    calls earn no call_f1; chain needs the linked records shown before the consumer; calls in the
#    final answer's message are not counted.
# 5: a name offered beside any invented alternative ("정신아 또는 김철수", "A의원 아니면 B병원") earns no
#    answer credit (was: only an alternative of its own kind); one rule, matching.name_hedged, for the
#    scorer and the step rewards; efficiency is 0 for any call on a task that needs none (was 1.0 for
#    one call); a clock hour ("21시 기준") is no figure, a subject's figure denied ("21도가 아닙니다") is not
#    stated where the fact has competitors too, nor a figure said as the opposite extreme ("최저기온은
#    21도" for the high).
# 6: a value's alias from its own gold row beside it ("삼성전자 또는 SAMSUNG ELECTRONICS CO,.LTD") is no
#    hedge (grading.gold_truth adds matching.with_row_aliases).
# 7: a which-one name is not stated where it is only a list's owner or anchor ("'A병원'의 진료과목 중 가장 …",
#    "A와 같은 시군구의 … 중 가장 …"), inside another row's name ("정형외과" in "365정형외과의원"), or in another
#    pick's clause whose owner it is; a measure word inside a longer one ("진료" in "진료과목") is not that
#    measure (two winners swapped across roles over 2,000 EDGE rows: 15/25 passed before, 0/25 after).
# 8: success by grounded outcome: every required fact right and its records shown by the run's own
#    OK calls, whatever the route (lookups, filters, page sizes and order no longer gate it; chain,
#    ENVIRONMENT and call_f1 still show them); refusal evidence may carry the filters the question
#    states; matching credits runner-ups bound to their own subject, the question's short names,
#    identifiers in standard formats, per-group values ("각각") and quoted API messages in refusals;
#    task wording fixes found by careful-agent runs (issue 20).
# 9: a tied pick's truth is the tied set; a refusal may cite what the tools showed, date its reason and
#    say the data is not out yet; a count is grounded by every record of its answer set shown, an
#    aggregate by its records on any route, a record by its other form (another API version); names in
#    Latin letters, hour windows, office titles, shared and labelled lists, district short forms and
#    periods read as people write them; gold fixes (kopa-048 asks the outcome, kopa-050..060 take the
#    동 named, kopa-077 binds counts to their 구, kopa-111 counts 2020 seats under the party's 2020 name,
#    facts over two periods name them).
# 10: a runner-up labelled by its rank, a measure list continued up to its connective, web addresses
#    without their scheme, month/day dates beside a count, a role's holder, closed claims, per-group
#    lists with qualified names or names after the figures or in the next sentence, subjects with
#    accepted variants ("2026년|2026|올해") and key facts with their English forms, the question's own
#    ordinals and fractions in words as no count, tables read by column, sets asked in order
#    (ranked_set), invented holidays inside a listed period; gold fixes (kopa-065 asks the drink
#    warning too, kopa-080 binds each winner and party to its year, kopa-113's earlier party is
#    "4년 전", kopa-120..123 require the phone and name the later festivals as competitors,
#    kopa-025..027 rank the three nearest).
# 11: success grounded by wider routes too: a question with no record by a wider call that showed
#    every row, a required page through another endpoint's view of its rows, a fact by another
#    source of its value (``also_from``: the seat table, the hospital list's specialist count, the
#    province-wide real-time list); measure names read in either form (PM2.5 / 초미세먼지), a subject
#    before its list head, a change's starting point, superlatives of another dimension, series of
#    figures, the mid-term sky in English; gold fixes (kopa-074/075 sum a station's lines, kopa-087
#    asks five days ahead where the short-range forecast no longer reaches, kopa-090/091 accept the
#    school's own 동 grid); distractors drawn from a frozen pool of operations; two facts of one
#    figure need it said for each; schools said in English ("Maetan High"); a refusal's claim that a
#    named thing does not exist needs a call behind it.
TASK_VERSION = 11
