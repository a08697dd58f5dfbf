; Traitscope's Windows installer additions (included by electron-builder's NSIS script).
; Registers Traitscope under "Open with" for DNA raw-data file types without taking over
; the default program for .txt, .csv or .zip, and removes that registration on uninstall.

!define TRAITSCOPE_PROGID "Traitscope.DNARawData"

!macro TraitscopeOpenWith EXT
  WriteRegStr SHCTX "Software\Classes\.${EXT}\OpenWithProgids" "${TRAITSCOPE_PROGID}" ""
  WriteRegStr SHCTX "Software\Classes\Applications\${APP_EXECUTABLE_FILENAME}\SupportedTypes" ".${EXT}" ""
!macroend

!macro TraitscopeNoOpenWith EXT
  DeleteRegValue SHCTX "Software\Classes\.${EXT}\OpenWithProgids" "${TRAITSCOPE_PROGID}"
!macroend

!macro customInstall
  WriteRegStr SHCTX "Software\Classes\${TRAITSCOPE_PROGID}" "" "DNA raw-data file"
  WriteRegStr SHCTX "Software\Classes\${TRAITSCOPE_PROGID}\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\${TRAITSCOPE_PROGID}\shell\open" "" "Analyze with Traitscope"
  WriteRegStr SHCTX "Software\Classes\${TRAITSCOPE_PROGID}\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
  WriteRegStr SHCTX "Software\Classes\Applications\${APP_EXECUTABLE_FILENAME}\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
  WriteRegStr SHCTX "Software\Classes\Applications\${APP_EXECUTABLE_FILENAME}" "FriendlyAppName" "Traitscope"
  !insertmacro TraitscopeOpenWith "txt"
  !insertmacro TraitscopeOpenWith "csv"
  !insertmacro TraitscopeOpenWith "tsv"
  !insertmacro TraitscopeOpenWith "vcf"
  !insertmacro TraitscopeOpenWith "zip"
  !insertmacro TraitscopeOpenWith "gz"
  ; Tell Explorer the associations changed (SHCNE_ASSOCCHANGED).
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend

!macro customUnInstall
  !insertmacro TraitscopeNoOpenWith "txt"
  !insertmacro TraitscopeNoOpenWith "csv"
  !insertmacro TraitscopeNoOpenWith "tsv"
  !insertmacro TraitscopeNoOpenWith "vcf"
  !insertmacro TraitscopeNoOpenWith "zip"
  !insertmacro TraitscopeNoOpenWith "gz"
  DeleteRegKey SHCTX "Software\Classes\${TRAITSCOPE_PROGID}"
  DeleteRegKey SHCTX "Software\Classes\Applications\${APP_EXECUTABLE_FILENAME}"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend
