import CLinphone
print(String(cString: linphone_core_get_version()))
