"""The prioritisation headline reads as a sentence with one asset as well as with several."""

from specialists.maintenance.prioritize import AssetPriority, priority_headline


def test_one_asset_has_no_dangling_comparison() -> None:
    head = priority_headline([AssetPriority("Chiller 6", 2.0, ["kW/ton rising +0.0100/day (a1)"])])
    assert "vs )" not in head and "vs" not in head
    assert head.startswith("Chiller 6: kW/ton rising")
    assert "score 2" in head


def test_several_assets_compare_scores() -> None:
    ranking = [AssetPriority("Chiller 6", 8.0, ["most likely condenser fouling at ~80% (a1)"]),
               AssetPriority("Chiller 9", 1.0, [])]
    head = priority_headline(ranking)
    assert head == ("Chiller 6 needs attention first: most likely condenser fouling at ~80% (a1) "
                    "(score 8 vs Chiller 9 1)")


def test_corrective_years_keep_complete_years_only() -> None:
    from datetime import date

    from specialists.maintenance.history import corrective_years, summarise_work_orders

    orders = [{"actual_finish": f"{year}-06-01", "preventive": False}
              for year, n in ((2016, 1), (2017, 2), (2018, 4), (2021, 1)) for _ in range(n)]
    years = corrective_years(summarise_work_orders(orders), date(2021, 3, 1))
    assert years["corrective_per_year"] == {"2016": 1, "2017": 2, "2018": 4, "2019": 0, "2020": 0}
    assert years["partial_year"] == 2021 and years["partial_year_corrective"] == 1
