#include <cctype>
#include <iostream>
#include <string>

int main() {
    std::string s;
    std::cin >> s;
    for (char &c : s)
        c = std::islower((unsigned char)c) ? (char)std::toupper((unsigned char)c) : (char)std::tolower((unsigned char)c);
    std::cout << s << "\n";
}
