"""Importers of external fleet data into `FleetData` (AssetOpsBench files)."""

from fleet.importer.assetopsbench import AssetOpsBenchImportError, read_assetopsbench

__all__ = ["AssetOpsBenchImportError", "read_assetopsbench"]
