"""The MAIN-site chiller fleet: generator, AssetOpsBench importer, bulk loader, plots and summaries."""
