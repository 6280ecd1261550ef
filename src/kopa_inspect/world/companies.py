"""Companies, filings and financial statements for the OpenDART emulator (world part ``companies``).

Real: the companies, their DART 고유번호 (corp_code, 8 digits) and KRX 종목코드 (stock_code) for the
large listed ones, their market (corp_cls Y 유가증권 / K 코스닥), head-office addresses and home pages
as publicly known (CEO names as of 2025, may be outdated), and the shape of DART data: report
codes (11013 1분기, 11012 반기, 11014 3분기, 11011 사업보고서), filing deadlines (사업보고서 by the end
of March, 분기·반기 within 45 days), 14-digit 접수번호 (rcept_no = filing date + serial), amounts as
comma-formatted KRW strings. corp_codes marked ``real_code`` false and every financial figure are
SYNTHETIC (plausible scale per company, drawn from the seed). The companies are package data,
``data/companies.csv``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.tables import read_table


@dataclass(frozen=True)
class Company:
    corp_code: str
    corp_name: str  # DART's registered name, e.g. "삼성전자(주)" in company.json
    short_name: str  # corpCode.xml / list.json name ("삼성전자")
    corp_name_eng: str
    stock_code: str  # "" when unlisted (corpCode.xml has a single space)
    corp_cls: str  # Y 유가증권, K 코스닥, N 코넥스, E 기타
    ceo_nm: str
    adres: str
    hm_url: str
    phn_no: str
    induty_code: str
    est_dt: str
    revenue_2023: float  # 조원 (trillion KRW), consolidated; 0 for companies without statements
    margin: float  # operating margin around which years vary
    real_code: bool = True  # False: corp_code is synthetic (UNCERTAIN or unknown)
    modify_date: str = "20250401"

    @property
    def listed(self) -> bool:
        return bool(self.stock_code.strip())


def _company(row: dict[str, str]) -> Company:
    return Company(
        corp_code=row["corp_code"],
        corp_name=row["corp_name"],
        short_name=row["short_name"],
        corp_name_eng=row["corp_name_eng"],
        stock_code=row["stock_code"],
        corp_cls=row["corp_cls"],
        ceo_nm=row["ceo_nm"],
        adres=row["adres"],
        hm_url=row["hm_url"],
        phn_no=row["phn_no"],
        induty_code=row["induty_code"],
        est_dt=row["est_dt"],
        revenue_2023=float(row["revenue_2023"]),
        margin=float(row["margin"]),
        real_code=row["real_code"] == "true",
    )


COMPANIES: tuple[Company, ...] = tuple(_company(row) for row in read_table("companies.csv"))

BY_CORP_CODE: dict[str, Company] = {c.corp_code: c for c in COMPANIES}

REPORT_NAMES = {"11013": "분기보고서", "11012": "반기보고서", "11014": "분기보고서", "11011": "사업보고서"}
# Period end (month, day) and filing deadline offset of each report code.
REPORT_PERIOD = {"11013": (3, 31), "11012": (6, 30), "11014": (9, 30), "11011": (12, 31)}
QUARTER_SHARE = {"11013": 0.24, "11012": 0.49, "11014": 0.745, "11011": 1.0}
PREVIOUS_REPORT = {"11012": "11013", "11014": "11012"}


def filing_date(world: World, company: Company, year: int, reprt_code: str) -> date:
    """When a periodic report for (year, code) is filed: within the legal deadline, per company."""
    rng = world.rng("dart-filing", company.corp_code, year, reprt_code)
    if reprt_code == "11011":
        base = date(year + 1, 3, 31) - timedelta(days=rng.randint(10, 25))
    else:
        m, d = REPORT_PERIOD[reprt_code]
        base = date(year, m, d) + timedelta(days=45 - rng.randint(0, 6))
    while base.weekday() >= 5:
        base -= timedelta(days=1)
    return base


def rcept_no(world: World, company: Company, filed: date, salt: str) -> str:
    serial = world.rng("dart-rcept", company.corp_code, filed.isoformat(), salt).randint(100, 999999)
    return f"{filed:%Y%m%d}{serial:06d}"


def filed_reports(world: World, company: Company) -> list[tuple[int, str, date]]:
    """Every periodic report filed by the clock, oldest first: (business year, reprt_code, filed)."""
    if company.revenue_2023 <= 0:
        return []
    today = world.clock.date()
    out = []
    for year in range(2015, today.year + 1):
        for code in ("11013", "11012", "11014", "11011"):
            filed = filing_date(world, company, year, code)
            if filed <= today:
                out.append((year, code, filed))
    return sorted(out, key=lambda t: t[2])


# --- financial statements (synthetic) ----------------------------------------------------------


def _won(x: float) -> str:
    return f"{round(x):,}"


def annual_figures(world: World, company: Company, year: int) -> dict[str, float]:
    """Consolidated annual figures in KRW: a seeded walk around the company's 2023 scale."""
    scale = company.revenue_2023 * 1e12
    growth = 1.0
    for y in range(2023, year, 1 if year > 2023 else -1):
        g = world.rng("dart-growth", company.corp_code, y).uniform(-0.08, 0.16)
        growth = growth * (1 + g) if year > 2023 else growth / (1 + g)
    rng = world.rng("dart-fin", company.corp_code, year)
    revenue = scale * growth
    op = revenue * (company.margin + rng.uniform(-0.04, 0.06))
    pretax = op * rng.uniform(0.9, 1.25)
    net = pretax * rng.uniform(0.72, 0.82)
    assets = revenue * rng.uniform(1.2, 1.8)
    current = assets * rng.uniform(0.35, 0.5)
    liabilities = assets * rng.uniform(0.2, 0.45)
    cur_liab = liabilities * rng.uniform(0.5, 0.75)
    capital = max(revenue * 0.003, 5e10) * (1 + (int(company.corp_code) % 7) / 10)
    equity = assets - liabilities
    return {
        "유동자산": current,
        "비유동자산": assets - current,
        "자산총계": assets,
        "유동부채": cur_liab,
        "비유동부채": liabilities - cur_liab,
        "부채총계": liabilities,
        "자본금": capital,
        "이익잉여금": equity * 0.8,
        "자본총계": equity,
        "매출액": revenue,
        "영업이익": op,
        "법인세차감전 순이익": pretax,
        "당기순이익": net,
    }


BS_ACCOUNTS = (
    "유동자산",
    "비유동자산",
    "자산총계",
    "유동부채",
    "비유동부채",
    "부채총계",
    "자본금",
    "이익잉여금",
    "자본총계",
)
IS_ACCOUNTS = ("매출액", "영업이익", "법인세차감전 순이익", "당기순이익")


def period_figures(
    world: World, company: Company, year: int, reprt_code: str, fs_div: str
) -> dict[str, float]:
    fig = annual_figures(world, company, year)
    share = QUARTER_SHARE[reprt_code]
    out = {}
    for k, v in fig.items():
        if k in IS_ACCOUNTS:
            v = v * share  # cumulative year-to-date flow
        elif reprt_code != "11011":
            v = v * (0.92 + 0.08 * share)
        if fs_div == "OFS":
            v = v * (0.62 if k in IS_ACCOUNTS else 0.7)
        out[k] = v
    return out


def statement_rows(world: World, company: Company, year: int, reprt_code: str) -> list[dict[str, Any]]:
    """fnlttSinglAcnt rows: 재무상태표 and 손익계산서 key accounts, 연결(CFS) then 별도(OFS)."""
    filed = next((f for y, c, f in filed_reports(world, company) if y == year and c == reprt_code), None)
    if filed is None:
        return []
    rno = rcept_no(world, company, filed, f"periodic-{reprt_code}")
    m, d = REPORT_PERIOD[reprt_code]
    term = year - int(company.est_dt[:4]) + 1
    rows = []
    for fs_div, fs_nm in (("CFS", "연결재무제표"), ("OFS", "재무제표")):
        now = period_figures(world, company, year, reprt_code, fs_div)
        prev = period_figures(
            world, company, year - 1, reprt_code if reprt_code != "11011" else "11011", fs_div
        )
        prev2 = period_figures(world, company, year - 2, "11011", fs_div)
        ord_no = 0
        for sj_div, sj_nm, accounts in (("BS", "재무상태표", BS_ACCOUNTS), ("IS", "손익계산서", IS_ACCOUNTS)):
            for acc in accounts:
                ord_no += 1
                if sj_div == "BS":
                    t_dt = f"{year}.{m:02d}.{d:02d} 현재"
                    f_nm, f_dt = f"제 {term - 1} 기말", f"{year - 1}.12.31 현재"
                    f_val = period_figures(world, company, year - 1, "11011", fs_div)[acc]
                else:
                    q_start = {"11012": "04.01", "11014": "07.01"}.get(reprt_code, "01.01")
                    t_dt = f"{year}.{q_start} ~ {year}.{m:02d}.{d:02d}"
                    f_nm, f_dt = f"제 {term - 1} 기", f"{year - 1}.01.01 ~ {year - 1}.{m:02d}.{d:02d}"
                    f_val = prev[acc]
                row = {
                    "rcept_no": rno,
                    "bsns_year": str(year),
                    "stock_code": company.stock_code,
                    "reprt_code": reprt_code,
                    "account_nm": acc,
                    "fs_div": fs_div,
                    "fs_nm": fs_nm,
                    "sj_div": sj_div,
                    "sj_nm": sj_nm,
                    "thstrm_nm": f"제 {term} 기"
                    + (
                        " 1분기"
                        if reprt_code == "11013"
                        else " 반기"
                        if reprt_code == "11012"
                        else " 3분기"
                        if reprt_code == "11014"
                        else ""
                    ),
                    "thstrm_dt": t_dt,
                    "thstrm_amount": _won(now[acc]),
                    "frmtrm_nm": f_nm,
                    "frmtrm_dt": f_dt,
                    "frmtrm_amount": _won(f_val),
                }
                if reprt_code == "11011":
                    row.update(
                        {
                            "bfefrmtrm_nm": f"제 {term - 2} 기",
                            "bfefrmtrm_dt": f"{year - 2}.12.31 현재"
                            if sj_div == "BS"
                            else f"{year - 2}.01.01 ~ {year - 2}.12.31",
                            "bfefrmtrm_amount": _won(prev2[acc]),
                        }
                    )
                elif sj_div == "IS":
                    # Quarterly reports: thstrm_amount is the three months of the quarter, the
                    # *_add_amount fields the year to date (the 1분기 report: both the same).
                    earlier = PREVIOUS_REPORT.get(reprt_code)
                    q_now, q_prev = now[acc], f_val
                    if earlier:
                        q_now -= period_figures(world, company, year, earlier, fs_div)[acc]
                        q_prev -= period_figures(world, company, year - 1, earlier, fs_div)[acc]
                    row["thstrm_amount"] = _won(q_now)
                    row["thstrm_add_amount"] = _won(now[acc])
                    row["frmtrm_amount"] = _won(q_prev)
                    row["frmtrm_add_amount"] = _won(f_val)
                row["ord"] = str(ord_no)
                row["currency"] = "KRW"
                rows.append(row)
    return rows


# --- filings (공시검색) ---------------------------------------------------------------------------

OTHER_FILINGS = (
    ("B", "주요사항보고서(자기주식취득결정)"),
    ("I", "현금ㆍ현물배당결정"),
    ("D", "임원ㆍ주요주주특정증권등소유상황보고서"),
    ("I", "기업설명회(IR)개최(안내공시)"),
    ("I", "연결재무제표기준영업(잠정)실적(공정공시)"),
    ("E", "대규모기업집단현황공시[분기별공시(개별회사용)]"),
)


@dataclass(frozen=True)
class Filing:
    company: Company
    report_nm: str
    rcept_no: str
    flr_nm: str
    rcept_dt: str
    rm: str
    pblntf_ty: str

    def row(self) -> dict[str, Any]:
        c = self.company
        return {
            "corp_cls": c.corp_cls,
            "corp_name": c.short_name,
            "corp_code": c.corp_code,
            "stock_code": c.stock_code,
            "report_nm": self.report_nm,
            "rcept_no": self.rcept_no,
            "flr_nm": self.flr_nm,
            "rcept_dt": self.rcept_dt,
            "rm": self.rm,
        }


def _filings(world: World, company: Company) -> list[Filing]:
    out: list[Filing] = []
    for year, code, filed in filed_reports(world, company):
        m, _ = REPORT_PERIOD[code]
        name = f"{REPORT_NAMES[code]} ({year}.{m:02d})"
        out.append(
            Filing(
                company,
                name,
                rcept_no(world, company, filed, f"periodic-{code}"),
                company.short_name,
                f"{filed:%Y%m%d}",
                "연" if code == "11011" and company.listed else "",
                "A",
            )
        )
    if company.listed:
        today = world.clock.date()
        d = date(2023, 1, 2)
        rng = world.rng("dart-filings", company.corp_code)
        while d <= today:
            d += timedelta(days=rng.randint(9, 40))
            if d > today or d.weekday() >= 5:
                continue
            ty, nm = rng.choice(OTHER_FILINGS)
            filer = rng.choice(["국민연금공단", "임원"]) if ty == "D" else company.short_name
            rm = "유" if ty == "I" else ""
            out.append(Filing(company, nm, rcept_no(world, company, d, nm), filer, f"{d:%Y%m%d}", rm, ty))
    return out


class CompanyWorld:
    def __init__(self, world: World) -> None:
        self.world = world
        filings = [f for c in COMPANIES for f in _filings(world, c)]
        # Newest first, as DART lists them.
        self.filings: tuple[Filing, ...] = tuple(
            sorted(filings, key=lambda f: (f.rcept_dt, f.rcept_no), reverse=True)
        )


@world_part("companies")
def _build(world: World) -> CompanyWorld:
    return CompanyWorld(world)


def filings(world: World) -> tuple[Filing, ...]:
    return world.part("companies").filings


# --- dividends (배당에 관한 사항, alotMatter; synthetic) --------------------------------------------

PAR_VALUES = (100, 500, 5000)
QUARTERS = {"11013": 1, "11012": 2, "11014": 3, "11011": 4}  # quarters a report's figures cover


@dataclass(frozen=True)
class ShareFacts:
    """Seed-fixed share facts of a company: par value, common shares issued, payout policy."""

    par: int
    shares: int
    payout: float  # cash dividends / consolidated net income
    per: float  # price / earnings, for the dividend yield
    quarterly: bool  # pays quarterly dividends (shown in 분기·반기 reports)


def share_facts(world: World, company: Company) -> ShareFacts:
    rng = world.rng("dart-shares", company.corp_code)
    par = rng.choice(PAR_VALUES)
    capital = annual_figures(world, company, 2023)["자본금"]
    return ShareFacts(
        par=par,
        shares=max(1_000_000, int(capital / par)),
        payout=rng.uniform(0.12, 0.45),
        per=rng.uniform(7.0, 22.0),
        quarterly=rng.random() < 0.2,
    )


def _mil(x: float) -> str:
    return f"{round(x / 1e6):,}"


def _dividend_figures(world: World, company: Company, year: int, reprt_code: str) -> dict[str, str]:
    facts = share_facts(world, company)
    cfs = period_figures(world, company, year, reprt_code, "CFS")["당기순이익"]
    ofs = period_figures(world, company, year, reprt_code, "OFS")["당기순이익"]
    eps = cfs / facts.shares
    annual_dps = max(
        0, round(annual_figures(world, company, year)["당기순이익"] / facts.shares * facts.payout / 10) * 10
    )
    if reprt_code == "11011":
        dps = annual_dps
    elif facts.quarterly:
        dps = round(annual_dps * QUARTERS[reprt_code] / 4 / 10) * 10
    else:
        dps = 0
    total = dps * facts.shares
    # The yield's price: earnings so far, annualised, at the company's PER.
    price = max(eps, 1.0) * facts.per * 4 / QUARTERS[reprt_code]
    dash = "-"
    return {
        "주당액면가액(원)": f"{facts.par:,}",
        "(연결)당기순이익(백만원)": _mil(cfs),
        "(별도)당기순이익(백만원)": _mil(ofs),
        "(연결)주당순이익(원)": f"{round(eps):,}",
        "현금배당금총액(백만원)": _mil(total) if dps else dash,
        "주식배당금총액(백만원)": dash,
        "(연결)현금배당성향(%)": f"{total / cfs * 100:.1f}" if dps and cfs > 0 else dash,
        "현금배당수익률(%)": f"{dps / price * 100:.1f}" if dps else dash,
        "주식배당수익률(%)": dash,
        "주당 현금배당금(원)": f"{dps:,}" if dps else dash,
        "주당 주식배당(주)": dash,
    }


# Rows that belong to one kind of share (the others carry no stock_knd).
_PER_SHARE_KIND = {"현금배당수익률(%)", "주식배당수익률(%)", "주당 현금배당금(원)", "주당 주식배당(주)"}


def dividend_rows(world: World, company: Company, year: int, reprt_code: str) -> list[dict[str, Any]]:
    """alotMatter rows of a filed periodic report: this term, the term before and the one before it."""
    filed = next((f for y, c, f in filed_reports(world, company) if y == year and c == reprt_code), None)
    if filed is None:
        return []
    now = _dividend_figures(world, company, year, reprt_code)
    prev = _dividend_figures(world, company, year - 1, reprt_code) if year > 2015 else {}
    prev2 = _dividend_figures(world, company, year - 2, reprt_code) if year > 2016 else {}
    m, d = REPORT_PERIOD[reprt_code]
    rno = rcept_no(world, company, filed, f"periodic-{reprt_code}")
    rows = []
    for se, value in now.items():
        row: dict[str, Any] = {
            "rcept_no": rno,
            "corp_cls": company.corp_cls,
            "corp_code": company.corp_code,
            "corp_name": company.corp_name,
            "se": se,
        }
        if se in _PER_SHARE_KIND:
            row["stock_knd"] = "보통주"
        row.update(
            {
                "thstrm": value,
                "frmtrm": prev.get(se, "-"),
                "lwfr": prev2.get(se, "-"),
                "stlm_dt": f"{year}-{m:02d}-{d:02d}",
            }
        )
        rows.append(row)
    return rows


# --- large holdings (대량보유 상황보고, majorstock; synthetic) ----------------------------------------

HOLDERS = (
    "국민연금공단",
    "BlackRock Fund Advisors",
    "The Capital Group Companies, Inc.",
    "미래에셋자산운용",
    "삼성자산운용",
    "Norges Bank",
)
REASONS_UP = ("보유주식등의 수 변동(장내매수)", "보유비율 1% 이상 변동", "주식등의 추가 취득")
REASONS_DOWN = ("보유주식등의 수 변동(장내매도)", "보유비율 1% 이상 변동", "보유주식등의 처분")


def holding_reports(world: World, company: Company) -> list[dict[str, Any]]:
    """majorstock rows: every 5% holder's reports (a new holding, then each move of 1%p or more)
    filed by the clock, newest first."""
    if not company.listed or company.revenue_2023 <= 0:
        return []
    facts = share_facts(world, company)
    today = world.clock.date()
    rng = world.rng("dart-majorstock", company.corp_code)
    holders = rng.sample(HOLDERS, rng.randint(1, 3))
    rows = []
    for holder in holders:
        day = date(2016, 1, 4) + timedelta(days=rng.randint(0, 2500))
        ratio = 0.0
        first = True
        while day <= today:
            step = rng.uniform(5.0, 6.5) if first else rng.choice((-1, 1)) * rng.uniform(1.0, 2.2)
            if not first and ratio + step < 5.0:
                step = -ratio  # falls under 5%: the last report, the holding leaves the register
            new_ratio = round(ratio + step, 2)
            if day.weekday() < 5:
                qty, prev_qty = int(facts.shares * new_ratio / 100), int(facts.shares * ratio / 100)
                rows.append(
                    {
                        "rcept_no": rcept_no(world, company, day, f"majorstock-{holder}"),
                        "rcept_dt": day.isoformat(),
                        "corp_code": company.corp_code,
                        "corp_name": company.short_name,
                        "report_tp": "일반" if first or holder in ("국민연금공단",) else "약식",
                        "repror": holder,
                        "stkqy": f"{qty:,}",
                        "stkqy_irds": f"{qty - prev_qty:,}",
                        "stkrt": f"{new_ratio:.2f}",
                        "stkrt_irds": f"{new_ratio - ratio:.2f}",
                        "ctr_stkqy": "0",
                        "ctr_stkrt": "0.00",
                        "report_resn": "신규보고"
                        if first
                        else rng.choice(REASONS_UP if step > 0 else REASONS_DOWN),
                    }
                )
                ratio, first = new_ratio, False
                if ratio < 5.0:
                    break
            day += timedelta(days=rng.randint(60, 700))
    return sorted(rows, key=lambda r: (r["rcept_dt"], r["rcept_no"]), reverse=True)
