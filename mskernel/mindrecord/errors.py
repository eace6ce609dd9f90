"""``mindspore.mindrecord``'s exceptions: MindSpore's class names, base messages and ``[Class]: message`` text.

Example:
    >>> str(ParamTypeError("raw_data", "list"))
    "[ParamTypeError]: Invalid parameter type. 'raw_data' expect list type."
    >>> str(MRMAddSchemaError())
    '[MRMAddSchemaError]: Failed to add schema.'
"""
from __future__ import annotations

from typing import Any

__all__ = ["MindRecordException", "UnknownError", "ParamValueError", "ParamTypeError", "ParamMissError",
           "PathNotExistsError", "DbConnectionError", "MRMOpenError", "MRMOpenForAppendError",
           "MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError", "MRMSetHeaderError", "MRMWriteDatasetError",
           "MRMCommitError", "MRMLaunchError", "MRMFinishError", "MRMCloseError", "MRMAddSchemaError",
           "MRMAddIndexError", "MRMBuildSchemaError", "MRMGetMetaError", "MRMIndexGeneratorError",
           "MRMGenerateIndexError", "MRMInitSegmentError", "MRMFetchCandidateFieldsError",
           "MRMReadCategoryInfoError", "MRMFetchDataError", "MRMInvalidSchemaError", "MRMValidateDataError",
           "MRMDefineIndexError", "MRMDefineBlobError", "MRMUnsupportedSchemaError", "MRMDefineCategoryError"]

#: class name -> (MindSpore's error number, base message)
_BASE = {
    "UnknownError": (0, "Unknown Error."), "ParamTypeError": (1, "Param type is error."),
    "ParamValueError": (2, "Param value is error."), "ParamMissError": (3, "Param missing."),
    "PathNotExistsError": (4, "Path does not exist."), "DbConnectionError": (5, "Db connection is error."),
    "MRMOpenError": (100, "MindRecord could not open."),
    "MRMOpenForAppendError": (101, "MindRecord could not open for append."),
    "MRMInvalidPageSizeError": (102, "Failed to set page size."),
    "MRMInvalidHeaderSizeError": (103, "Failed to set header size."),
    "MRMSetHeaderError": (104, "Failed to set header."), "MRMWriteDatasetError": (105, "Failed to write dataset."),
    "MRMCommitError": (107, "Failed to commit."), "MRMLaunchError": (108, "Failed to launch."),
    "MRMFinishError": (109, "Failed to finish."), "MRMCloseError": (110, "Failed to close."),
    "MRMAddSchemaError": (111, "Failed to add schema."), "MRMAddIndexError": (112, "Failed to add index field."),
    "MRMBuildSchemaError": (113, "Failed to build schema."), "MRMGetMetaError": (114, "Failed to get meta info."),
    "MRMIndexGeneratorError": (115, "Failed to create index generator."),
    "MRMGenerateIndexError": (116, "Failed to generate index."),
    "MRMInitSegmentError": (117, "Failed to initialize segment."),
    "MRMFetchCandidateFieldsError": (118, "Failed to fetch candidate category fields."),
    "MRMReadCategoryInfoError": (119, "Failed to read category information."),
    "MRMFetchDataError": (120, "Failed to fetch data by category."),
    "MRMInvalidSchemaError": (200, "Schema is error."), "MRMValidateDataError": (201, "Raw data is valid."),
    "MRMDefineIndexError": (202, "Index field is error."), "MRMDefineBlobError": (203, "Blob field is error."),
    "MRMUnsupportedSchemaError": (204, "Schema is not supported."),
    "MRMDefineCategoryError": (205, "Category field is error."),
}


class MindRecordException(Exception):
    """Base of the MindRecord errors; ``str()`` is ``[ClassName]: message``.

    Example:
        >>> MRMCommitError().error_msg
        'Failed to commit.'
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        number, message = _BASE.get(type(self).__name__, _BASE["UnknownError"])
        self._error_msg = message
        self._number = number

    def __str__(self) -> str:
        return f"[{type(self).__name__}]: {self._error_msg}"

    @property
    def error_msg(self) -> str:
        """The message (without the class name)."""
        return self._error_msg

    @error_msg.setter
    def error_msg(self, msg: str) -> None:
        self._error_msg = msg

    @property
    def error_code(self) -> int:
        """MindSpore's error number of this class (0-99 common, 100-199 shard, 200-299 file)."""
        return self._number


def _detailed(name: str, template: str) -> type:
    """A MindRecord error class whose message is ``template`` filled with the details it is raised with (its
    docstring's example shows the text)."""
    def __init__(self: MindRecordException, *details: Any) -> None:
        MindRecordException.__init__(self)
        self.error_msg = template.format(*details)
    details = ["detail"] * template.count("{}")
    call = f"{name}({', '.join(repr(d) for d in details)})"
    doc = (f"MindSpore's ``{name}``.\n\nExample:\n    >>> print({call})\n"
           f"    [{name}]: {template.format(*details)}\n")
    return type(name, (MindRecordException,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


UnknownError = _detailed("UnknownError", "Unknown Error.")
ParamValueError = _detailed("ParamValueError", "Invalid parameter value. {}")
ParamTypeError = _detailed("ParamTypeError", "Invalid parameter type. '{}' expect {} type.")
ParamMissError = _detailed("ParamMissError", "Param missing. '{}' is required.")
PathNotExistsError = _detailed("PathNotExistsError", "Invalid path. {}")
DbConnectionError = _detailed("DbConnectionError", "Db connection is error. Detail: {}")
MRMOpenError = _detailed("MRMOpenError", "MindRecord File could not open successfully.")
MRMOpenForAppendError = _detailed("MRMOpenForAppendError", "MindRecord File could not open successfully for append.")
MRMInvalidSchemaError = _detailed("MRMInvalidSchemaError", "Schema format is error. Detail: {}")
MRMValidateDataError = _detailed("MRMValidateDataError", "Raw data do not match the schema. Detail: {}")
MRMDefineIndexError = _detailed("MRMDefineIndexError", "Failed to define index field. Detail: {}")
MRMDefineBlobError = _detailed("MRMDefineBlobError", "Failed to define blob field. Detail: {}")
MRMUnsupportedSchemaError = _detailed("MRMUnsupportedSchemaError", "Schema is not supported. Detail: {}")
MRMDefineCategoryError = _detailed("MRMDefineCategoryError", "Failed to define category field. Detail: {}")
MRMInvalidPageSizeError = _detailed("MRMInvalidPageSizeError", "Failed to set page size.")
MRMInvalidHeaderSizeError = _detailed("MRMInvalidHeaderSizeError", "Failed to set header size.")
MRMSetHeaderError = _detailed("MRMSetHeaderError", "Failed to set header.")
MRMWriteDatasetError = _detailed("MRMWriteDatasetError", "Failed to write dataset.")
MRMCommitError = _detailed("MRMCommitError", "Failed to commit.")
MRMLaunchError = _detailed("MRMLaunchError", "Failed to launch.")
MRMFinishError = _detailed("MRMFinishError", "Failed to finish.")
MRMCloseError = _detailed("MRMCloseError", "Failed to close.")
MRMAddSchemaError = _detailed("MRMAddSchemaError", "Failed to add schema.")
MRMAddIndexError = _detailed("MRMAddIndexError", "Failed to add index field.")
MRMBuildSchemaError = _detailed("MRMBuildSchemaError", "Failed to build schema.")
MRMGetMetaError = _detailed("MRMGetMetaError", "Failed to get meta info.")
MRMIndexGeneratorError = _detailed("MRMIndexGeneratorError", "Failed to create index generator.")
MRMGenerateIndexError = _detailed("MRMGenerateIndexError", "Failed to generate index.")
MRMInitSegmentError = _detailed("MRMInitSegmentError", "Failed to initialize segment.")
MRMFetchCandidateFieldsError = _detailed("MRMFetchCandidateFieldsError", "Failed to fetch candidate category fields.")
MRMReadCategoryInfoError = _detailed("MRMReadCategoryInfoError", "Failed to read category information.")
MRMFetchDataError = _detailed("MRMFetchDataError", "Failed to fetch data by category.")
